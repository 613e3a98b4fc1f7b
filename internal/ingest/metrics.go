package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rootline-dev/rootline/internal/cluster"
	"github.com/rootline-dev/rootline/internal/metrics"
	"github.com/rootline-dev/rootline/internal/redact"
)

// maxAnswerBytes bounds one saved answer, which is read whole before it is decoded.
const maxAnswerBytes = 64 << 20

// decodeMetrics reads a saved answer of Prometheus's range query API (GET
// /api/v1/query_range, as curl or `rootline snapshot --prometheus` saves it) into series
// objects, bounded by metrics.DecodeBytes's limits, the query named by the file (see
// metrics.QueryName) or by a manifest beside it. Label values are redacted like any other
// keyed values. An answer of status "error", or one that is not whole, is refused naming the
// file and the byte.
func (d *Decoder) decodeMetrics(name string, r io.Reader, emit func(*cluster.Object) error) error {
	// r counts against the decoder's budget and stops with ctx already (decodeLeaf's reader).
	body, err := io.ReadAll(io.LimitReader(r, maxAnswerBytes+1))
	if err != nil {
		return err
	}
	if len(body) > maxAnswerBytes {
		return &Error{File: name, Offset: maxAnswerBytes, Err: ErrTooLarge,
			Msg: fmt.Sprintf("a saved Prometheus answer larger than %d MiB: ask for a longer step or fewer series", maxAnswerBytes>>20)}
	}
	res, err := metrics.DecodeBytes(body, "", metrics.Limits{})
	if err != nil {
		if errors.Is(err, ErrTooLarge) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		e := &Error{File: name, Msg: "a saved Prometheus answer that does not read: " + err.Error(), Err: ErrMalformed}
		var me *metrics.Error
		if errors.As(err, &me) {
			e.Offset = me.Offset
		}
		if errors.Is(err, metrics.ErrFailed) {
			e.Msg = "a saved Prometheus answer of a query that failed, with no series: " + err.Error()
		}
		return e
	}
	if len(res.Series) == 0 {
		d.skip(Skipped{File: name, Kind: metrics.SeriesKind, Reason: "a saved Prometheus answer with no series (the metric was not there over the window)"})
		return nil
	}
	for i := range res.Series {
		redact.Keyed(res.Series[i].Labels)
	}
	query := metrics.QueryName(name)
	objs, err := metrics.Objects(query, "", cluster.Source{File: name}, res)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, o := range objs {
		if err := emit(o); err != nil {
			return err
		}
	}
	return nil
}
