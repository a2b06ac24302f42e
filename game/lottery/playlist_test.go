package lottery

import (
	"strings"
	"testing"
)

func TestDefaultPlaylist(t *testing.T) {
	items := DefaultPlaylist()
	if len(items) != 16 {
		t.Fatalf("%d items", len(items))
	}
	prizes := map[string]bool{}
	for i, it := range items {
		if want := []string{"yams", "vegas"}[i%2]; it.Game.Name != want {
			t.Errorf("item %d is %s, want %s: the games alternate", i, it.Game.Name, want)
		}
		tb, _ := it.Game.Table(it.Stake)
		prizes[it.Game.Name+":"+tb.Prize(*it.Force.Tier).String()] = true
	}
	for _, want := range []string{"yams:0", "vegas:0", "yams:5000", "yams:2500", "yams:1000", "vegas:40000", "vegas:1000", "vegas:3"} {
		if !prizes[want] {
			t.Errorf("the playlist never shows %s", want)
		}
	}
}

func TestReadPlaylist(t *testing.T) {
	input := `{"game":"yams","stake":"0,5","prize":"2500"}
{"game":"vegas","prize":"0"}
{"game":"yams","stake":"2","cups":[[1,2,3,4,5],[4,4,4,2,2],[6,6,1,2,3]]}
`
	items, err := ReadPlaylist(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || items[0].Stake.String() != "0.5" || *items[0].Force.Tier != 0 || items[2].Force.Layout == nil {
		t.Fatalf("%+v", items)
	}
	bad := map[string]string{
		`{"game":"yams","prize":"7"}`:             "line 1: prize: 7 is not a lot of yams at 1",
		`{"game":"poker","prize":"7"}`:            `line 1: game: game "poker" is not yams or vegas`,
		`{"game":"yams","stake":"3","prize":"3"}`: "line 1: stake 3 is not one of 0.5, 1, 2 for yams",
		`{"game":"yams","cups":[[1,1,1,1,9]]}`:    "line 1: cups: want 3 cups, got 1",
		`[1]`:                                     "line 1: want a layout or a lot",
		"":                                        "the playlist holds no unit",
		`{"game":"vegas","prize":"40000"}` + "\n{]": "line 2",
	}
	for in, want := range bad {
		if _, err := ReadPlaylist(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// TestReadPlaylistHostile: a syntax error is named as such, a file of open
// brackets is one error, and a playlist stops at MaxRecords units.
func TestReadPlaylistHostile(t *testing.T) {
	bad := map[string]string{
		`{"game":"yams","prize":"5"` + "\n":                      "line 1: invalid JSON: unexpected end of input",
		`{"game":"vegas","prize":"0"}` + "\n" + `{"game": yams}`: "line 2: invalid JSON: invalid character 'y'",
		strings.Repeat("[\n", 20000):                             "line 1: invalid JSON",
		`{"game":"yams\u001b]0;x\u0007","prize":"5"}`:            `game "yams\x1b]0;x\a" is not yams or vegas`,
	}
	for in, want := range bad {
		_, err := ReadPlaylist(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: %v, want %q", in, err, want)
		}
	}
	lot := `{"game":"vegas","prize":"0"}` + "\n"
	items, err := ReadPlaylist(strings.NewReader(strings.Repeat(lot, MaxRecords)))
	if err != nil || len(items) != MaxRecords {
		t.Errorf("%d units: %v", len(items), err)
	}
	_, err = ReadPlaylist(strings.NewReader(strings.Repeat(lot, MaxRecords+1)))
	if err == nil || !strings.Contains(err.Error(), "more than 10000 units") {
		t.Errorf("%d units: %v", MaxRecords+1, err)
	}
	_, err = ReadPlaylist(strings.NewReader(strings.Repeat("x", MaxLine+1)))
	if err == nil || !strings.Contains(err.Error(), "line 1 is longer than 1 MiB") {
		t.Errorf("a long line: %v", err)
	}
}
