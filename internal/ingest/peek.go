package ingest

import (
	"bytes"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/jsonscan"
)

// typeMetaOf is peekTypeMeta, answered by a plain byte scan when the object is ordinary (keys
// and the values read without escapes, metadata an object or null), which is nearly always
// and several times faster than the json.Decoder's tokens; anything else goes to peekTypeMeta.
func typeMetaOf(raw []byte, like typeMeta) (typeMeta, error) {
	if tm, ok := scanTypeMeta(raw, like); ok {
		return tm, nil
	}
	return peekTypeMeta(raw)
}

// scanTypeMeta reads what peekTypeMeta reads, the same way: top-level keys match exactly, a
// repeated key counts as long as the scan goes, and the scan stops once kind, apiVersion and
// metadata have all been seen; metadata's name and namespace match as encoding/json matches
// struct fields (ignoring case, the last one winning). It gives up (ok false) on whatever it
// cannot answer exactly the same way: escapes, non-ASCII metadata keys, invalid UTF-8,
// values of the wrong type (peekTypeMeta's error is the answer then) and malformed JSON.
// Values equal to like's are like's strings, not copies: the object's fields then share the
// memory of its typed object's.
func scanTypeMeta(raw []byte, like typeMeta) (tm typeMeta, ok bool) {
	i := jsonscan.SkipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return tm, false
	}
	i = jsonscan.SkipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return tm, true
	}
	var sawKind, sawVersion, sawMeta bool
	for {
		if sawKind && sawVersion && sawMeta {
			return tm, true
		}
		key, j, ok := jsonscan.Key(raw, i)
		if !ok {
			return tm, false
		}
		i = j
		switch string(key) {
		case "kind":
			if i, ok = scanStringValue(raw, i, &tm.Kind, like.Kind); !ok {
				return tm, false
			}
			sawKind = true
		case "apiVersion":
			if i, ok = scanStringValue(raw, i, &tm.APIVersion, like.APIVersion); !ok {
				return tm, false
			}
			sawVersion = true
		case "metadata":
			if i, ok = scanMeta(raw, i, &tm, like); !ok {
				return tm, false
			}
			sawMeta = true
		default:
			if string(key) == "items" {
				tm.HasItems = true
			}
			if i, ok = jsonscan.SkipValue(raw, i); !ok {
				return tm, false
			}
		}
		i = jsonscan.SkipWS(raw, i)
		if i >= len(raw) {
			return tm, false
		}
		switch raw[i] {
		case '}':
			return tm, true
		case ',':
			i = jsonscan.SkipWS(raw, i+1)
		default:
			return tm, false
		}
	}
}

// scanMeta reads metadata's name and namespace from the object (or null) at raw[i:].
func scanMeta(raw []byte, i int, tm *typeMeta, like typeMeta) (int, bool) {
	if bytes.HasPrefix(raw[i:], []byte("null")) {
		return i + 4, true
	}
	if i >= len(raw) || raw[i] != '{' {
		return i, false
	}
	i = jsonscan.SkipWS(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return i + 1, true
	}
	for {
		key, j, ok := jsonscan.Key(raw, i)
		if !ok {
			return i, false
		}
		i = j
		for _, c := range key {
			if c >= utf8.RuneSelf {
				return i, false // encoding/json folds some non-ASCII letters onto ASCII ones
			}
		}
		switch {
		case bytes.EqualFold(key, []byte("name")):
			i, ok = scanStringValue(raw, i, &tm.Name, like.Name)
		case bytes.EqualFold(key, []byte("namespace")):
			i, ok = scanStringValue(raw, i, &tm.Namespace, like.Namespace)
		default:
			i, ok = jsonscan.SkipValue(raw, i)
		}
		if !ok {
			return i, false
		}
		i = jsonscan.SkipWS(raw, i)
		if i >= len(raw) {
			return i, false
		}
		switch raw[i] {
		case '}':
			return i + 1, true
		case ',':
			i = jsonscan.SkipWS(raw, i+1)
		default:
			return i, false
		}
	}
}

// scanStringValue stores the string at raw[i:] in *dst as decoding into a string would; null
// leaves *dst alone. Escapes, invalid UTF-8, control characters and other types give up.
func scanStringValue(raw []byte, i int, dst *string, like string) (int, bool) {
	if bytes.HasPrefix(raw[i:], []byte("null")) {
		return i + 4, true
	}
	if i >= len(raw) || raw[i] != '"' {
		return i, false
	}
	end := bytes.IndexByte(raw[i+1:], '"')
	if end < 0 {
		return i, false
	}
	s := raw[i+1 : i+1+end]
	if bytes.IndexByte(s, '\\') >= 0 || jsonscan.HasControl(s) || !utf8.Valid(s) {
		return i, false
	}
	*dst = share(s, like)
	return i + 2 + end, true
}

// share returns s as a string: like when equal, a constant for the usual kinds and versions.
func share(s []byte, like string) string {
	if string(s) == like {
		return like
	}
	switch string(s) {
	case "v1":
		return "v1"
	case cluster.KindPod:
		return cluster.KindPod
	case cluster.KindNode:
		return cluster.KindNode
	case cluster.KindEvent:
		return cluster.KindEvent
	}
	return string(s)
}
