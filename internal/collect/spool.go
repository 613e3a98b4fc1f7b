package collect

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// spool is a folder of batches waiting for delivery, one file each, named by a sequence
// number so that they go out in the order they were made. A batch is written aside and
// renamed into place, so a crash never leaves half a batch; it is removed once the server has
// it. The folder is bounded: past max bytes, the oldest batches are dropped (and counted).
type spool struct {
	dir string
	max int64

	mu    sync.Mutex
	next  uint64
	files []spoolFile // oldest first
	bytes int64
	ready chan struct{} // signalled when a batch is added
}

type spoolFile struct {
	seq   uint64
	size  int64
	items int
}

const spoolExt = ".json"

// openSpool opens (creating) a spool folder and takes up the batches a previous run left.
func openSpool(dir string, limit int64) (*spool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("collect: spool: %w", err)
	}
	s := &spool{dir: dir, max: limit, ready: make(chan struct{}, 1)}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("collect: spool: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") { // a batch a crash left half-written
			_ = os.Remove(filepath.Join(dir, name))
			continue
		}
		seq, items, ok := parseSpoolName(name)
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("collect: spool: %w", err)
		}
		s.files = append(s.files, spoolFile{seq: seq, size: info.Size(), items: items})
		s.bytes += info.Size()
		s.next = max(s.next, seq+1)
	}
	sort.Slice(s.files, func(i, j int) bool { return s.files[i].seq < s.files[j].seq })
	return s, nil
}

// spoolName holds the sequence number and the number of objects: "00000000000000000042-500.json".
func spoolName(seq uint64, items int) string {
	return fmt.Sprintf("%020d-%d%s", seq, items, spoolExt)
}

func parseSpoolName(name string) (seq uint64, items int, ok bool) {
	base, found := strings.CutSuffix(name, spoolExt)
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(base, "-")
	if !found {
		return 0, 0, false
	}
	seq, err1 := strconv.ParseUint(a, 10, 64)
	n, err2 := strconv.Atoi(b)
	return seq, n, err1 == nil && err2 == nil
}

// add writes a batch and returns how many objects older batches held that had to be dropped
// to stay within the bound.
func (s *spool) add(body []byte, items int) (dropped int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq := s.next
	s.next++
	name := spoolName(seq, items)
	f, err := os.CreateTemp(s.dir, "."+name+".*")
	if err != nil {
		return 0, fmt.Errorf("collect: spool: %w", err)
	}
	_, werr := f.Write(body)
	err = errors.Join(werr, f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(s.dir, name))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return 0, fmt.Errorf("collect: spool: %w", err)
	}
	s.files = append(s.files, spoolFile{seq: seq, size: int64(len(body)), items: items})
	s.bytes += int64(len(body))
	for s.bytes > s.max && len(s.files) > 1 {
		old := s.files[0]
		if err := os.Remove(filepath.Join(s.dir, spoolName(old.seq, old.items))); err != nil && !os.IsNotExist(err) {
			return dropped, fmt.Errorf("collect: spool: %w", err)
		}
		s.files = s.files[1:]
		s.bytes -= old.size
		dropped += old.items
	}
	select {
	case s.ready <- struct{}{}:
	default:
	}
	return dropped, nil
}

// oldest returns the oldest batch waiting, if any.
func (s *spool) oldest() (spoolFile, []byte, bool, error) {
	s.mu.Lock()
	if len(s.files) == 0 {
		s.mu.Unlock()
		return spoolFile{}, nil, false, nil
	}
	f := s.files[0]
	s.mu.Unlock()
	body, err := os.ReadFile(filepath.Join(s.dir, spoolName(f.seq, f.items)))
	if os.IsNotExist(err) { // dropped for room meanwhile
		s.remove(f)
		return s.oldest()
	}
	if err != nil {
		return f, nil, false, fmt.Errorf("collect: spool: %w", err)
	}
	return f, body, true, nil
}

// remove forgets a delivered (or refused) batch.
func (s *spool) remove(f spoolFile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.files {
		if x.seq == f.seq {
			s.files = append(s.files[:i], s.files[i+1:]...)
			s.bytes -= x.size
			break
		}
	}
	_ = os.Remove(filepath.Join(s.dir, spoolName(f.seq, f.items)))
}

// size is the number of batches and bytes waiting.
func (s *spool) size() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.files), s.bytes
}
