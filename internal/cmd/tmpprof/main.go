package main

import (
	"os"
	"runtime/pprof"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/session"
)

func main() {
	os.Remove("/tmp/prof.db")
	s, err := session.Open(session.Options{Store: "sqlite:/tmp/prof.db", Balance: decimal.NewFromInt(100000)})
	if err != nil { panic(err) }
	f, _ := os.Create("/tmp/sim.prof")
	pprof.StartCPUProfile(f)
	start := time.Now()
	var buy, shown time.Duration
	for i := 0; i < 5000; i++ {
		t0 := time.Now()
		sold, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "")
		if err != nil { panic(err) }
		t1 := time.Now()
		if err := s.Shown(sold.Name()); err != nil { panic(err) }
		buy += t1.Sub(t0); shown += time.Since(t1)
	}
	pprof.StopCPUProfile()
	fmt.Println(time.Since(start)/5000, buy/5000, shown/5000)
}
