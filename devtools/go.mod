module github.com/domsnap/domsnap/devtools

go 1.26.0

require (
	github.com/domsnap/domsnap v0.0.0
	github.com/google/go-cmp v0.7.0
	github.com/jstemmer/go-junit-report/v2 v2.1.0
	github.com/mafredri/cdp v0.35.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	golang.org/x/net v0.62.0
)

require (
	github.com/andybalholm/cascadia v1.3.5 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/tdewolff/parse/v2 v2.8.20 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/domsnap/domsnap => ../
