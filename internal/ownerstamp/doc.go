// Package ownerstamp marks the folders a process leaves for itself (a
// browser's throw-away profile, a tool-server session's uploads and
// downloads) with a stamp naming that process, and removes the folders
// whose process has ended. A process removes its folders on every path
// that runs its code; one killed outright cannot, and the next process to
// use the same place removes them instead. Only a folder with a stamp that
// names an ended process is ever removed, so the folders of live processes,
// and folders of any other origin, are never touched.
package ownerstamp
