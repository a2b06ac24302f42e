package store

// SealedTables returns lot tables as an emission's seal records them
// (ledger.Seal.Tables): the table of every game at each of its stakes,
// checked as an emission's are, in one canonical JSON text. nil stands for
// the regulations' tables. The local game's journal seals its tables with
// it, so that a journal's seal and a store's read alike.
func SealedTables(tables Tables) (string, error) {
	t, err := newTables(tables)
	if err != nil {
		return "", err
	}
	return encodeTables(t)
}
