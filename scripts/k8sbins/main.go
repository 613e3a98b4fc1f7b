// Command k8sbins builds the kube-apiserver, kubectl and etcd that the integration tests run
// (internal/k8stest) into their cache, unless they are there already. .ci/run calls it before
// the tests, so that a cold build (minutes) is not charged to a test's timeout.
//
//	go run ./scripts/k8sbins
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/rootline-dev/rootline/internal/k8stest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	api, etcd, err := k8stest.Binaries(ctx, func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) })
	if err != nil {
		fmt.Fprintln(os.Stderr, "k8sbins:", err)
		os.Exit(1)
	}
	dir, err := k8stest.CacheDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "k8sbins:", err)
		os.Exit(1)
	}
	fmt.Println(api)
	fmt.Println(filepath.Join(dir, "kubectl"))
	fmt.Println(etcd)
}
