package main

import (
	"context"
	"flag"
	"log"
	"runtime"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	// beamx registers the runners and the local and gcs file systems.
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

func main() {
	lists := flag.String("lists", "", "glob of input lists, one path or object URI a line")
	output := flag.String("output", "", "folder for results.jsonl and errors.jsonl")
	shards := flag.Int("shards", 16, "how many shards: one domsnap process and one retry unit each")
	bin := flag.String("domsnap", "domsnap", "the domsnap binary on the workers")
	request := flag.String("request", "", "the extract request file, on the workers")
	jobs := flag.Int("jobs", runtime.NumCPU(), "domsnap --jobs on each worker")
	timeout := flag.Duration("shard-timeout", 30*time.Minute, "the most one shard's domsnap may take")
	flag.Parse()
	beam.Init()
	if *lists == "" || *output == "" || *request == "" {
		log.Fatal("--lists, --output and --request are required")
	}
	p, s := beam.NewPipelineWithRoot()
	build(s, config{Lists: *lists, Output: *output, Shards: *shards, Domsnap: *bin,
		Args: []string{"--request", *request}, Jobs: *jobs, ShardTimeout: *timeout})
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
}
