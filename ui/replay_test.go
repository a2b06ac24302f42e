package ui

import (
	"strings"
	"testing"

	"tapis/game/lottery"
)

// TestReplayScreen shows the layouts of a file one by one, uncovered, and
// pays nothing to nobody.
func TestReplayScreen(t *testing.T) {
	input := `{"game":"yams","stake":"2","cups":[[1,2,3,4,5],[4,4,4,2,2],[6,6,1,2,3]]}
{"unit":"vegas:3:1:7","game":"vegas","roulette":{"number":17,"amounts":{"parity":"5","color":"10","half":"3","number":"100"},"bets":{"parity":"even","color":"black","half":"low","number":23}},"craps":[{"dice":[3,4],"amount":"20"},{"dice":[1,1],"amount":"5"},{"dice":[6,2],"amount":"10"}],"poker":{"hand":["As","9d"],"community":["Ah","Kd","7c","7s","2h"]},"jackpot":{"reels":["seven","seven","cherry"],"bonus":"bar"},"prize":"46"}
`
	var entries []lottery.Entry
	lottery.Read(strings.NewReader(input), func(e lottery.Entry) { entries = append(entries, e) })
	for _, lang := range []Lang{French, English} {
		m := mustReplay(t, entries, lang, 0, false)
		send(m, sizeMsg(80, 24))
		golden(t, "replay_"+string(lang)+"_1", plain(m))
		press(m, "right")
		golden(t, "replay_"+string(lang)+"_2", plain(m))
		if !strings.Contains(plain(m), "vegas:3:1:7") {
			t.Error("the record's unit is not shown")
		}
		press(m, "right", "left")
		if !strings.HasSuffix(strings.SplitN(plain(m), "\n", 2)[0], " 1/2") {
			t.Errorf("not at the first layout after right, right, left:\n%s", plain(m))
		}
		press(m, "end")
		if !strings.HasSuffix(strings.SplitN(plain(m), "\n", 2)[0], " 2/2") {
			t.Errorf("end is not the last layout:\n%s", plain(m))
		}
		press(m, "home")
		if !strings.HasSuffix(strings.SplitN(plain(m), "\n", 2)[0], " 1/2") {
			t.Errorf("home is not the first layout:\n%s", plain(m))
		}
		if m.Totals().Played != 0 {
			t.Error("a replay played a unit")
		}
	}
}
