package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tapis/game"
	"tapis/ledger"
)

// HeadEvery is how often a seller signs a head of what it recorded, while
// it records: a rollback of anything older is shown by the heads.
const HeadEvery = 2 * time.Second

// CheckEvery is how often a seller checks the store has not changed under
// it: the emission's seal, the blocks on sale, the accounts it holds, its
// last head.
const CheckEvery = 3 * time.Second

// ErrTampered is returned by every sale once a seller found its store
// changed under it: it sells nothing more (see Tampered).
var ErrTampered = errors.New("the store was changed under its seller: sales are stopped")

// TamperedError says what a seller found changed in its store.
type TamperedError struct{ What string }

func (e *TamperedError) Error() string { return "store changed under its seller: " + e.What }

// Is makes a TamperedError an ErrTampered.
func (e *TamperedError) Is(target error) bool { return target == ErrTampered }

// headBook holds what a seller recorded since its last head, and what it
// knows it wrote (to check the store still holds it).
type headBook struct {
	mu       sync.Mutex
	accounts map[string]ledger.AccountHead // extended since the last head
	marks    []ledger.Mark
	known    map[string]knownRecord // the last record it wrote, by account
	last     *ledger.HeadToken      // the last head it signed
	tampered error                  // what it found changed, once it did
	stop     chan struct{}
	done     chan struct{}
	seller   string // who signs its heads (host and process), found once
	onHead   func(ledger.HeadToken)
	onTamper func(error)
}

// noteRecord notes a record written (committed) at the head of an
// account's chain: a purchase's number, 0 for a deposit; cover puts it in
// the next head.
func (s *SQL) noteRecord(a ledger.AccountHead, number int, balance game.Cents, cover bool) {
	b := &s.book
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.known == nil {
		b.known, b.accounts = map[string]knownRecord{}, map[string]ledger.AccountHead{}
	}
	if k, ok := b.known[a.Account]; !ok || a.Seq >= k.Seq {
		b.known[a.Account] = knownRecord{a, number, balance}
	}
	if cover {
		b.accounts[a.Account] = a
	}
}

// noteMarks notes marks written (committed).
func (s *SQL) noteMarks(ms []ledger.Mark) {
	if len(ms) == 0 {
		return
	}
	s.book.mu.Lock()
	s.book.marks = append(s.book.marks, ms...)
	s.book.mu.Unlock()
}

// takeBody takes what the next head covers.
func (b *headBook) takeBody() ledger.HeadBody {
	b.mu.Lock()
	defer b.mu.Unlock()
	var body ledger.HeadBody
	for _, a := range b.accounts {
		body.Accounts = append(body.Accounts, a)
	}
	slices.SortFunc(body.Accounts, func(x, y ledger.AccountHead) int { return strings.Compare(x.Account, y.Account) })
	body.Marks = b.marks
	clear(b.accounts)
	b.marks = nil
	return body
}

// putBack puts what a head could not be signed for back, to go in the next.
func (b *headBook) putBack(body ledger.HeadBody) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.accounts == nil {
		b.accounts = map[string]ledger.AccountHead{}
	}
	for _, a := range body.Accounts {
		if k, ok := b.accounts[a.Account]; !ok || a.Seq > k.Seq {
			b.accounts[a.Account] = a
		}
	}
	b.marks = append(body.Marks, b.marks...)
}

// seller names this seller in its heads: its host and process.
func seller() string {
	host, _ := os.Hostname()
	return host + "/" + strconv.Itoa(os.Getpid())
}

// SignHead signs a head of what this seller recorded since its last one,
// chained to the store's last head, if it recorded anything. Once the
// seller found its store changed under it, it signs nothing more: its head
// would chain to, and vouch for, heads an insider may have written.
func (s *SQL) SignHead(ctx context.Context) error {
	if !s.key.Valid() {
		return nil
	}
	if err := s.tamperedErr(); err != nil {
		return err
	}
	body := s.book.takeBody()
	if body.Empty() {
		return nil
	}
	text, err := ledger.EncodeBody(body)
	if err != nil {
		return err
	}
	var tok ledger.HeadToken
	for try := 0; ; try++ {
		err = s.tx(ctx, func(tx *sql.Tx) error {
			if err := s.engine.headsLock(ctx, tx); err != nil {
				return fmt.Errorf("store: waiting to sign a head: %w", oneLine{err})
			}
			h := ledger.Head{N: 1, Prev: s.emission.SealHash, Seal: s.emission.SealHash, Seller: s.book.seller, Body: body}
			var prev []byte
			err := tx.QueryRowContext(ctx, `SELECT n, hash FROM heads ORDER BY n DESC LIMIT 1`).Scan(&h.N, &prev)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return fmt.Errorf("store: reading its last head: %w", err)
			default:
				h.N++
				copy(h.Prev[:], prev)
			}
			at, err := s.clock(ctx, sqlRunner{s, tx})
			if err != nil {
				return err
			}
			h.At = at.UnixNano()
			hash := h.Hash()
			sig := s.key.Sign(h.Statement())
			if _, err := tx.ExecContext(ctx, s.engine.q(`INSERT INTO heads (n, prev, hash, sig, seller, at, body) VALUES ($1, $2, $3, $4, $5, $6, $7)`),
				h.N, h.Prev[:], hash[:], sig[:], h.Seller, h.At, text); err != nil {
				return fmt.Errorf("store: recording head %d: %w", h.N, oneLine{err})
			}
			tok = h.Token(sig)
			return nil
		})
		if err == nil || try == 4 || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Duration(try+1) * 20 * time.Millisecond) // the database did not answer: again
	}
	if err != nil {
		s.book.putBack(body)
		return err
	}
	s.book.mu.Lock()
	s.book.last = &tok
	on := s.book.onHead
	s.book.mu.Unlock()
	if on != nil {
		on(tok)
	}
	return nil
}

// LastHead returns the last head this seller signed, if any.
func (s *SQL) LastHead() (ledger.HeadToken, bool) {
	s.book.mu.Lock()
	defer s.book.mu.Unlock()
	if s.book.last == nil {
		return ledger.HeadToken{}, false
	}
	return *s.book.last, true
}

// tamperedErr returns what the seller found changed, if it did.
func (s *SQL) tamperedErr() error {
	s.book.mu.Lock()
	defer s.book.mu.Unlock()
	return s.book.tampered
}

// tamper records that the store changed under its seller: it sells
// nothing more, and tells its owner once.
func (s *SQL) tamper(what string) error {
	err := &TamperedError{What: what}
	s.book.mu.Lock()
	first := s.book.tampered == nil
	if first {
		s.book.tampered = err
	}
	on := s.book.onTamper
	s.book.mu.Unlock()
	if first && on != nil {
		on(err)
	}
	return err
}

// startBook starts signing heads and checking the store, every HeadEvery
// and CheckEvery, until the store closes. Their ticks keep the phase of
// the store's opening, not the beat a server's light periodic work and
// its sessions' clocks share (internal/beat): a check reads and hashes
// again every account held, a few milliseconds of work that the purchases
// of that busy moment would wait behind, where its wake alone costs
// little.
func (s *SQL) startBook(o Options) {
	b := &s.book
	b.onHead, b.onTamper, b.seller = o.OnHead, o.OnTamper, seller()
	b.stop, b.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(b.done)
		heads, checks := time.NewTicker(HeadEvery), time.NewTicker(CheckEvery)
		defer heads.Stop()
		defer checks.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-heads.C:
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				s.SignHead(ctx) // what it could not sign goes in the next
				cancel()
			case <-checks.C:
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				s.Check(ctx)
				cancel()
			}
		}
	}()
}

// closeBook stops the heads and checks, and signs the last head.
func (s *SQL) closeBook() error {
	b := &s.book
	if b.stop == nil {
		return nil
	}
	close(b.stop)
	<-b.done
	b.stop = nil
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.SignHead(ctx)
}

// selling refuses a write once the seller found its store changed under
// it, and of a store opened without the house's key.
func (s *SQL) selling() error {
	if err := s.tamperedErr(); err != nil {
		return err
	}
	if !s.key.Valid() {
		return fmt.Errorf("store %s: opened to be read, it records nothing", s.where)
	}
	return nil
}

// trustedHead returns the hash an account's next record follows, once the
// seller is sure the record there is the house's: the last one it wrote of
// the account, or one whose signature it checks (the first time it sells to
// the account, or after another seller did). last is the place of the
// account's last record, head its row's hash of it, purchase and deposit
// the numbers of its last purchase and deposit, one of which is that
// record. A record an insider appended is never chained onto, and so never
// covered by a head: the sale is refused, and the seller sells no more.
func (s *SQL) trustedHead(ctx context.Context, r runner, account string, last int64, head []byte, purchase, deposit int, before game.Cents) (ledger.Hash, error) {
	var h ledger.Hash
	if last == 0 {
		// An account made before its emission was (a store migrated from a
		// tapis before chains) has no head yet.
		h = ledger.Genesis(s.emission.SealHash, account)
		if len(head) == 0 || bytes.Equal(head, h[:]) {
			return h, nil
		}
		return h, s.tamper(fmt.Sprintf("account %q: its history does not start from its own beginning", account))
	}
	if len(head) != len(h) {
		return h, s.tamper(fmt.Sprintf("account %q: its last record's hash is missing", account))
	}
	copy(h[:], head)
	s.book.mu.Lock()
	k, ok := s.book.known[account]
	s.book.mu.Unlock()
	if ok && k.Seq == last && k.Hash == h {
		if k.balance != before {
			return h, s.tamper(fmt.Sprintf("account %q: its balance is %s, its last record, which this seller wrote, left %s", account, before, k.balance))
		}
		return h, nil
	}
	for _, q := range []struct {
		query string
		n     int
	}{
		{`SELECT seq, hash, sig, after_cents FROM purchases WHERE account = $1 AND number = $2`, purchase},
		{`SELECT seq, hash, sig, NULL FROM deposits WHERE account = $1 AND n = $2`, deposit},
	} {
		if q.n < 1 {
			continue
		}
		var seq, left sql.NullInt64
		var hash, raw []byte
		err := r.row(ctx, q.query, account, q.n).Scan(&seq, &hash, &raw, &left)
		if isNoRows(err) || err == nil && seq.Int64 != last {
			continue
		}
		if err != nil {
			return h, fmt.Errorf("store: reading account %q's last record: %w", account, err)
		}
		var sig ledger.Sig
		if !bytes.Equal(hash, h[:]) || len(raw) != len(sig) || !s.key.Public().Verify(h, ledger.Sig(raw)) {
			return h, s.tamper(fmt.Sprintf("account %q: its last record (%d) is not one the house signed: added or changed", account, last))
		}
		if left.Valid && game.Cents(left.Int64) != before { // a purchase's: what it left (a deposit's is in no column)
			return h, s.tamper(fmt.Sprintf("account %q: its balance is %s, its last purchase left %s", account, before, game.Cents(left.Int64)))
		}
		return h, nil
	}
	return h, s.tamper(fmt.Sprintf("account %q: its history ends with record %d, which the store does not hold", account, last))
}
