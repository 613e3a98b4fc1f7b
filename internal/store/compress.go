package store

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// compressor compresses raw objects for storage with zstd: JSON of Kubernetes objects shrinks
// three- to six-fold. It replaced gzip, whose dynamic Huffman tables cost 110 µs for each
// 1 KiB event, half the time of storing a snapshot; rows written before keep their gzip,
// which decompress still reads (the formats start with different magic numbers). On
// PostgreSQL raw objects are stored as they are, and PostgreSQL compresses them (lz4, see
// migration 8): compressing them here made storing a snapshot take twice as long as copying
// its rows.
type compressor struct {
	enc     *zstd.Encoder
	dec     *zstd.Decoder
	readers sync.Pool // gzip readers, for rows written before zstd
}

func newCompressor() *compressor {
	// Neither option can fail.
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxObjectBytes))
	return &compressor{enc: enc, dec: dec}
}

// maxObjectBytes bounds what one stored object decompresses to.
const maxObjectBytes = 256 << 20

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// pack is how a raw object is stored: as it is on PostgreSQL, which compresses it itself;
// compressed with zstd on SQLite. A raw object is JSON, which starts with neither magic number.
func (s *Store) pack(raw []byte) ([]byte, error) {
	if s.dialect == Postgres {
		return raw, nil
	}
	return s.raw.compress(raw)
}

func (c *compressor) compress(raw []byte) ([]byte, error) {
	return c.enc.EncodeAll(raw, make([]byte, 0, len(raw)/3)), nil
}

func (c *compressor) decompress(stored []byte) ([]byte, error) {
	if !bytes.HasPrefix(stored, gzipMagic) && !bytes.HasPrefix(stored, zstdMagic) {
		return stored, nil // stored as it was given (PostgreSQL compresses it)
	}
	if !bytes.HasPrefix(stored, gzipMagic) {
		out, err := c.dec.DecodeAll(stored, nil)
		if err != nil {
			return nil, fmt.Errorf("store: decompress: %w", err)
		}
		return out, nil
	}
	src := bytes.NewReader(stored)
	r, _ := c.readers.Get().(*gzip.Reader)
	var err error
	if r == nil {
		r, err = gzip.NewReader(src)
	} else {
		err = r.Reset(src)
	}
	if err != nil {
		return nil, fmt.Errorf("store: decompress: %w", err)
	}
	defer c.readers.Put(r)
	out := bytes.NewBuffer(make([]byte, 0, 4*len(stored)))
	if _, err := io.Copy(out, io.LimitReader(r, maxObjectBytes)); err != nil {
		return nil, fmt.Errorf("store: decompress: %w", err)
	}
	return out.Bytes(), nil
}
