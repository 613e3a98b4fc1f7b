// Command proctime runs a command several times and prints, in Go benchmark format, the best
// wall time of a run and the peak resident memory (RSS, as the kernel counts it for the
// process, not the Go heap) of that run, so that scripts/perf.sh can measure whole processes
// as users run them next to in-process benchmarks:
//
//	go run ./scripts/proctime -name AnalyzeProcess -runs 2 -- ./rootline analyze dir
//
// prints
//
//	BenchmarkAnalyzeProcess 1 4213000000 ns/op 512.3 peak-rss-MiB 44.8 file-rss-MiB
//
// The file pages are read from /proc/PID/status (RssFile) every 10 ms while the command
// runs, and their most is printed: they are mapped as code and tables are first touched and
// not given back while the process lives, so the most is what they were at the peak, to
// within what the last 10 ms mapped. Where /proc is not there, the column is 0. The command's
// output is discarded; a run that fails stops proctime with its error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
	var bestRSS, bestFile int64
	for i := 0; i < *runs; i++ {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdout = io.Discard
		cmd.Stderr = os.Stderr
		start := time.Now()
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(os.Stderr, "proctime: %v: %v\n", args, err)
			os.Exit(1)
		}
		done := make(chan struct{})
		fileMost := make(chan int64, 1)
		go func() { fileMost <- watchFilePages(cmd.Process.Pid, done) }()
		err := cmd.Wait()
		close(done)
		file := <-fileMost
		if err != nil {
			fmt.Fprintf(os.Stderr, "proctime: %v: %v\n", args, err)
			os.Exit(1)
		}
		wall := time.Since(start)
		rss := int64(0)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss * 1024 // KiB on Linux
		}
		if i == 0 || wall < bestWall {
			bestWall, bestRSS, bestFile = wall, rss, file
		}
	}
	fmt.Printf("Benchmark%s 1 %d ns/op %.1f peak-rss-MiB %.1f file-rss-MiB\n", *name, bestWall.Nanoseconds(),
		float64(bestRSS)/(1<<20), float64(bestFile)/(1<<20))
}

// watchFilePages reads the process's resident file pages every 10 ms until done is closed or
// the process is gone, and returns the most it read, in bytes.
func watchFilePages(pid int, done <-chan struct{}) int64 {
	status := "/proc/" + strconv.Itoa(pid) + "/status"
	var most int64
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, ok := filePages(status); ok {
			most = max(most, b)
		}
		select {
		case <-done:
			return most
		case <-tick.C:
		}
	}
}

// filePages is the RssFile line of a /proc/PID/status, in bytes.
func filePages(status string) (int64, bool) {
	data, err := os.ReadFile(status)
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "RssFile:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
