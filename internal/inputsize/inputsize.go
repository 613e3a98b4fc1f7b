// Package inputsize estimates how large an input is once read: the bytes a file decodes to,
// and for pasted text the size of the objects it becomes. The server's memory budget charges
// an upload by it, and `rootline analyze` sets its memory limit by it, so that both cost the
// same input the same way.
package inputsize

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// TextGrowth is about how much larger the objects read from pasted text are than the text:
// a table row of 100 bytes becomes a whole pod object.
const TextGrowth = 24

// Decoded estimates what the file at path, size bytes long and named name, is once read:
// the bytes it decodes to (a gzip file's own record of its uncompressed size, its last four
// bytes modulo 4 GiB, else its size), at most limit where decoding stops anyway (0: no
// limit); times TextGrowth when it is pasted text, not JSON or YAML (by its name or its
// first bytes). A file that cannot be read is estimated by its size, and so is one that is not
// a regular file: a named pipe is not opened, since opening it waits for a writer, and what
// this read of it took would be lost to the reader that decodes it.
func Decoded(path, name string, size, limit int64) int64 {
	est := size
	var head [64]byte
	n := 0
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return capped(est, limit)
	}
	if f, err := os.Open(path); err == nil {
		n, _ = f.ReadAt(head[:], 0)
		if n >= 2 && head[0] == 0x1f && head[1] == 0x8b {
			var tail [4]byte
			if size >= 18 {
				if _, err := f.ReadAt(tail[:], size-4); err == nil {
					est = max(est, int64(binary.LittleEndian.Uint32(tail[:])))
				}
			}
			f.Close()
			return capped(est, limit)
		}
		f.Close()
	}
	est = capped(est, limit)
	if n > 0 && isText(head[:n], name) {
		est *= TextGrowth
	}
	return est
}

func capped(n, limit int64) int64 {
	if limit > 0 {
		return min(n, limit)
	}
	return n
}

// isText reports whether a file that starts with head and is named name is pasted text: not
// named as JSON or YAML, and not starting as either does.
func isText(head []byte, name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl", ".ndjson", ".yaml", ".yml":
		return false
	}
	head = bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(head) > 0 && (head[0] == '{' || head[0] == '[') {
		return false
	}
	for _, p := range []string{"---", "apiVersion:", "kind:", "items:"} {
		if bytes.HasPrefix(head, []byte(p)) {
			return false
		}
	}
	return true
}

// Series counts the series a file holds when it is a saved answer of Prometheus's HTTP API
// (JSON that starts {"status"): each "metric" key, read up to limit bytes (0: no limit), through
// a gzip file's compression. An answer of many small series costs more than its bytes say (each
// series a map of labels while the answer is read), so a budget charges its series too. Other
// files, and files that cannot be read, hold none.
func Series(path string, limit int64) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return 0
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	if limit > 0 {
		br = bufio.NewReaderSize(io.LimitReader(br, limit), 64<<10)
	}
	head, _ := br.Peek(32)
	if !bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf"), []byte(`{"status"`)) {
		return 0
	}
	key := []byte(`"metric"`)
	var n int64
	buf := make([]byte, 64<<10)
	carry := 0 // bytes of a key that may straddle two reads
	for {
		m, err := io.ReadFull(br, buf[carry:])
		chunk := buf[:carry+m]
		n += int64(bytes.Count(chunk, key))
		if err != nil {
			return n
		}
		carry = copy(buf, chunk[len(chunk)-(len(key)-1):])
	}
}
