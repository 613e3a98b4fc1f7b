// Command proctime runs a command several times and prints, in Go benchmark format, the best
// wall time of a run and the peak resident memory (RSS, as the kernel counts it for the
// process, not the Go heap) of that run, so that scripts/perf.sh can measure whole processes
// as users run them next to in-process benchmarks:
//
//	go run ./scripts/proctime -name AnalyzeProcess -runs 2 -- ./rootline analyze dir
//
// prints
//
//	BenchmarkAnalyzeProcess 1 4213000000 ns/op 512.3 peak-rss-MiB
//
// The command's output is discarded; a run that fails stops proctime with its error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	name := flag.String("name", "Process", "the benchmark name to print")
	runs := flag.Int("runs", 2, "how many times to run the command")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: proctime [-name N] [-runs K] -- command [args]")
		os.Exit(2)
	}
	var bestWall time.Duration
	var bestRSS int64
	for i := 0; i < *runs; i++ {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdout = io.Discard
		cmd.Stderr = os.Stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "proctime: %v: %v\n", args, err)
			os.Exit(1)
		}
		wall := time.Since(start)
		rss := int64(0)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss * 1024 // KiB on Linux
		}
		if i == 0 || wall < bestWall {
			bestWall, bestRSS = wall, rss
		}
	}
	fmt.Printf("Benchmark%s 1 %d ns/op %.1f peak-rss-MiB\n", *name, bestWall.Nanoseconds(), float64(bestRSS)/(1<<20))
}
