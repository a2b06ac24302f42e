package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion: the module's version when the build has one; devel, the
// commit and +dirty from a work tree.
func TestVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	rev := "e49c030a5b6f8d1c2e3f4a5b6c7d8e9f0a1b2c3d"
	cases := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "tapis devel"},
		{&debug.BuildInfo{Main: debug.Module{Path: "tapis", Version: "(devel)"}}, true, "tapis devel"},
		{&debug.BuildInfo{Main: debug.Module{Path: "tapis"}}, true, "tapis devel"},
		{&debug.BuildInfo{Main: debug.Module{Path: "tapis", Version: "(devel)"}, Settings: vcs(rev, "false")}, true, "tapis devel e49c030a5b6f"},
		{&debug.BuildInfo{Main: debug.Module{Path: "tapis", Version: "(devel)"}, Settings: vcs(rev, "true")}, true, "tapis devel e49c030a5b6f+dirty"},
		{&debug.BuildInfo{Main: debug.Module{Path: "tapis", Version: "v1.2.0"}, Settings: vcs(rev, "true")}, true, "tapis v1.2.0"},
		{&debug.BuildInfo{Main: debug.Module{Path: "tapis", Version: "v0.0.0-20261201120000-e49c030a5b6f+dirty"}}, true, "tapis v0.0.0-20261201120000-e49c030a5b6f+dirty"},
	}
	for _, c := range cases {
		if got := Version(c.info, c.ok); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info, got, c.want)
		}
	}
}

// TestUsageListsEveryCommand: the program's usage names every command,
// the game's flags and the exit statuses.
func TestUsageListsEveryCommand(t *testing.T) {
	var b strings.Builder
	writeUsage(&b)
	for _, want := range []string{"tapis [yams|vegas]", "tapis help", "tapis --version", "-balance string", "-playlist string", "Exit status"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	for _, c := range Commands() {
		if !strings.Contains(b.String(), "\n  tapis "+c+" ") {
			t.Errorf("no %s in\n%s", c, b.String())
		}
	}
}

func TestGetenv(t *testing.T) {
	e := Env{Environ: []string{"LANG=fr_FR", "EMPTY=", "X=a=b", "LANG=en_US"}}
	for key, want := range map[string]string{"LANG": "fr_FR", "EMPTY": "", "X": "a=b", "NONE": ""} {
		if got := e.Getenv(key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}
