package stats_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tapis/chart"
	"tapis/stats"
)

// A session's figures drawn as the stats screen draws them: the balance as a
// line, and for each game and stake the lots against their expected shares
// and the return against the table's payout rate.
func Example() {
	s, err := stats.New(stats.Options{})
	if err != nil {
		panic(err)
	}
	balance := decimal.NewFromInt(20)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i, prize := range []int64{0, 2, 0, 0, 1, 0, 10, 0, 0, 0, 0, 2} {
		stake, p := decimal.NewFromInt(1), decimal.NewFromInt(prize)
		balance = balance.Sub(stake).Add(p)
		err := s.Add(stats.Unit{Game: "yams", Stake: stake, Prize: p, Balance: balance, At: at.Add(time.Duration(i) * time.Minute)})
		if err != nil {
			panic(err)
		}
	}
	euros := func(v float64) string { return decimal.NewFromFloat(v).StringFixed(2) + " €" }
	start := s.Balance()[0].InexactFloat64()
	show(chart.Line(s.BalanceFloat64(), chart.LineOptions{Width: 40, Height: 6, Label: euros, Ref: &start, XLeft: "0", XRight: "12 units"}))
	for _, f := range s.Sequences() {
		var rows []chart.Bar
		for _, l := range f.Lots[len(f.Lots)-4:] {
			rows = append(rows, chart.Bar{
				Label:    l.Prize.StringFixed(2) + " €",
				Value:    l.Share.Float64(),
				Expected: l.Expected.Float64(),
				Text:     fmt.Sprintf("%d · %s %%", l.Share.Num, l.Share.Decimal(3).Shift(2)),
			})
		}
		fmt.Println(f.Key)
		show(chart.Bars(rows, chart.BarsOptions{Width: 40, Height: 4}))
		r, _ := f.Return(2)
		show(chart.Gauge(r.InexactFloat64(), f.Payout(2).InexactFloat64(), chart.GaugeOptions{
			Width: 40, Label: "return", Text: r.Shift(2).String() + " % / " + f.Payout(2).Shift(2).String() + " %"}))
	}
	// Output:
	// 25.00 €┤                  ⡞⠓⠦⢤⣀         |
	//        │                 ⢰⠃   ⠈⠉⠓⠦⢤⣀  ⣀⣠|
	//        │                 ⡏         ⠈⠉⠉⠁ |
	// 20.00 €┤⠒⠦⢤⡤⠖⠒⠲⢤⣀⡀┈┈┈┈┈┈⣸⠁┈┈┈┈┈┈┈┈┈┈┈┈┈┈|
	//        │         ⠉⠓⠒⠒⠒⠦⣄⡇               |
	//         0                       12 units|
	// yams:1
	// 3.00 € ┃                         0 · 0 %|
	// 2.00 € █┃██▊                  2 · 16.7 %|
	// 1.00 € ██▍┃                    1 · 8.3 %|
	// 0.00 € ███████████████████▏ ┃ 8 · 66.7 %|
	// return ██████████┃██████▉   125 % / 70 %|
}

// show prints a chart with a | after each line, to show where it ends.
func show(chart string) { fmt.Println(strings.ReplaceAll(chart, "\n", "|\n") + "|") }
