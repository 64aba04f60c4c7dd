package testbin

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole command")
	}
	bin, cleanup, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "help").Output()
	if err != nil || !strings.Contains(string(out), "Commands:") {
		t.Errorf("toguz help: %v\n%s", err, out)
	}
	cleanup()
	if _, err := os.Stat(bin); !os.IsNotExist(err) {
		t.Errorf("the binary is still there after cleanup: %v", err)
	}
}
