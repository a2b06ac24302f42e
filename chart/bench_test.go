package chart

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkChartSet draws what a 120×40 stats screen holds: a balance line
// of 5 000 units in 120×28 cells, ten lot bars in 120×10 and two gauges.
func BenchmarkChartSet(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	balance := make([]float64, 5000)
	v := 100.0
	for i := range balance {
		v += r.NormFloat64()
		balance[i] = v
	}
	rows := lots()[:5]
	rows = append(rows, rows...)
	ref := 100.0
	line := LineOptions{Width: 120, Height: 28, Label: euros, Ref: &ref, XLeft: "0", XRight: "5 000", Styles: lineColours()}
	bars := BarsOptions{Width: 120, Height: 10, Log: true, Track: "·", Styles: barColours()}
	gauge := GaugeOptions{Width: 120, Label: "return", Text: "53 % of 70 %", Styles: barColours()}
	b.ReportAllocs()
	for b.Loop() {
		_ = Line(balance, line)
		_ = Bars(rows, bars)
		_ = Gauge(0.53, 0.7, gauge)
		_ = Gauge(0.91, 0.7, gauge)
	}
}
