// Command scale runs domsnap's many-inputs mode as the map step of an Apache
// Beam pipeline (docs/scale.md): it reads lists of inputs, splits them into
// shards, runs one "domsnap extract --inputs -" per shard, and writes the
// JSON lines to results.jsonl and errors.jsonl.
//
//	go run . --lists 'lists/*.txt' --output out --shards 64 \
//	    --domsnap /usr/local/bin/domsnap --request request.json
//
// The runner is Beam's --runner flag: prism (the local runner, the default
// here) or a distributed one such as dataflow or flink.
//
// The program runs no analysis of its own: every line comes from the domsnap
// binary, so its results equal what "domsnap extract" prints for each input.
package main
