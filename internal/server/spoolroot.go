package server

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// spoolRoot is where this server receives uploads: a folder of its process under the spool
// folder (--spool-dir, else rootline-spool in the system's temporary folder), named after the
// process id and the time the process started, so that a server that starts can tell the
// folders of processes that are gone (killed with -9, or stopped by a SIGTERM whose grace ran
// out, in the middle of an upload) from those of servers still running, and remove them.
type spoolRoot struct {
	base string
	dir  string
}

// legacySpoolAge is the age past which a spool folder of an older release (rootline-upload-*
// in the temporary folder itself, of any process) is taken as left behind: no upload waits,
// decodes and stores for that long.
const legacySpoolAge = time.Hour

// openSpool makes this process's spool folder and removes what processes that are gone left.
func openSpool(base string, log *slog.Logger) (*spoolRoot, error) {
	if base == "" {
		base = filepath.Join(os.TempDir(), "rootline-spool")
	}
	if err := os.MkdirAll(base, 0o700); err != nil {
		return nil, fmt.Errorf("spool folder: %w", err)
	}
	self := processID(os.Getpid())
	root := &spoolRoot{base: base, dir: filepath.Join(base, "server-"+self)}
	if err := os.MkdirAll(root.dir, 0o700); err != nil {
		return nil, fmt.Errorf("spool folder: %w", err)
	}
	root.clean(self, log)
	return root, nil
}

// clean removes the spool folders of processes that are no longer running, and the folders
// older releases left in the temporary folder.
func (r *spoolRoot) clean(self string, log *slog.Logger) {
	entries, _ := os.ReadDir(r.base)
	for _, e := range entries {
		id, ok := strings.CutPrefix(e.Name(), "server-")
		if !ok || id == self || running(id) {
			continue
		}
		r.remove(filepath.Join(r.base, e.Name()), log)
	}
	legacy, _ := filepath.Glob(filepath.Join(os.TempDir(), "rootline-upload-*"))
	for _, dir := range legacy {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > legacySpoolAge {
			r.remove(dir, log)
		}
	}
}

func (r *spoolRoot) remove(dir string, log *slog.Logger) {
	if err := os.RemoveAll(dir); err != nil {
		log.Warn("spool left by a stopped server not removed", "dir", dir, "error", err)
		return
	}
	log.Info("removed the spool of a stopped server", "dir", dir)
}

// processID names a process for the spool: its id and, where /proc tells it, the time it
// started (in clock ticks since boot), so that a new process given the id of a dead one is
// not taken for it.
func processID(pid int) string {
	return strconv.Itoa(pid) + "-" + startTime(pid)
}

// running reports whether the process a spool folder is named after still runs. Without
// /proc it cannot tell, and says so: the folder is kept.
func running(id string) bool {
	pidText, start, ok := strings.Cut(id, "-")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil {
		return false // not a name this code makes: a stray, removed
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return true
	}
	return startTime(pid) == start
}

// startTime is field 22 of /proc/PID/stat, the process's start time; "" when there is no such
// process or no /proc.
func startTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name, in parentheses, may hold spaces
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 { // state is field 3, start time field 22
		return ""
	}
	return fields[19]
}
