// Package migrations holds the SQL schema of Rootline's database, one numbered file per change
// and one folder per dialect, embedded in the binary. A file is never changed once merged: a
// change to the schema is a new file in both folders, and a test checks that they stay in step.
package migrations

import "embed"

// FS holds postgres/NNN_name.sql and sqlite/NNN_name.sql.
//
//go:embed postgres/*.sql sqlite/*.sql
var FS embed.FS
