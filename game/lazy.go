package game

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Lazy is a value built on first use and never changed after: the tables
// that dealing and scoring read, too costly to build when the program starts
// (a millisecond or more) and read for every unit once built. Get then
// costs one atomic load, inlined, where sync.OnceValue costs calls.
type Lazy[T any] struct {
	build func() *T
	once  sync.Once
	p     unsafe.Pointer // *T once built
}

// NewLazy returns a Lazy whose value build makes, once.
func NewLazy[T any](build func() *T) *Lazy[T] { return &Lazy[T]{build: build} }

// Get returns the value, building it on the first call.
func (l *Lazy[T]) Get() *T {
	if p := atomic.LoadPointer(&l.p); p != nil {
		return (*T)(p)
	}
	return l.slow()
}

func (l *Lazy[T]) slow() *T {
	l.once.Do(func() { atomic.StorePointer(&l.p, unsafe.Pointer(l.build())) })
	return (*T)(atomic.LoadPointer(&l.p))
}
