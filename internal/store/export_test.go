package store

import "gorm.io/gorm"

// DB exposes the gorm handle to the external tests, which read columns that the API does not
// return (an event's count and time span) and create scratch schemas.
func (s *Store) DB() *gorm.DB { return s.db }
