package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"github.com/rootline-dev/rootline/internal/access"
)

// Account is a person who signs in to the pages with a password: never the hash itself.
type Account struct {
	Name       string
	Scope      access.Scope
	CreatedAt  time.Time
	DisabledAt *time.Time
}

type accountRow struct {
	Name         string `gorm:"primaryKey"`
	Scope        string
	PasswordHash string
	CreatedAt    time.Time
	DisabledAt   *time.Time
}

func (accountRow) TableName() string { return "accounts" }

func (r accountRow) account() Account {
	a := Account{Name: r.Name, Scope: access.Scope(r.Scope), CreatedAt: r.CreatedAt.UTC()}
	if r.DisabledAt != nil {
		at := r.DisabledAt.UTC()
		a.DisabledAt = &at
	}
	return a
}

// ErrAccountDisabled is returned when a disabled account signs in.
var ErrAccountDisabled = errors.New("account disabled")

// ErrWrongPassword is returned for a name without an account or a password that is not its
// own: the two are not told apart, so that names cannot be probed.
var ErrWrongPassword = errors.New("wrong name or password")

// CreateAccount makes a local account. ErrExists when one (even disabled) has that name.
func (s *Store) CreateAccount(ctx context.Context, name string, scope access.Scope, password string) (Account, error) {
	if err := access.ValidName(name); err != nil {
		return Account{}, err
	}
	if _, err := access.ParseScope(string(scope)); err != nil {
		return Account{}, err
	}
	hash, err := access.HashPassword(password)
	if err != nil {
		return Account{}, err
	}
	row := accountRow{Name: name, Scope: string(scope), PasswordHash: hash, CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.insertNamed(ctx, "account", name, &row); err != nil {
		return Account{}, err
	}
	return row.account(), nil
}

// Accounts lists the accounts, disabled ones too, by name.
func (s *Store) Accounts(ctx context.Context) ([]Account, error) {
	var rows []accountRow
	if err := s.db.WithContext(ctx).Order("name").Find(&rows).Error; err != nil {
		return nil, wrap(err, "list accounts")
	}
	out := make([]Account, len(rows))
	for i, r := range rows {
		out[i] = r.account()
	}
	return out, nil
}

// SetPassword changes an account's password and ends its sessions. ErrNotFound when there
// is no such account.
func (s *Store) SetPassword(ctx context.Context, name, password string) error {
	hash, err := access.HashPassword(password)
	if err != nil {
		return err
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&accountRow{}).Where("name = ?", name).UpdateColumn("password_hash", hash)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		return tx.Where("person = ?", name).Delete(&sessionRow{}).Error
	})
	return wrap(err, "set the password of %s", name)
}

// SetAccountDisabled disables an account, ending its sessions, or enables it again.
// ErrNotFound when there is no such account.
func (s *Store) SetAccountDisabled(ctx context.Context, name string, disabled bool) error {
	var at any
	if disabled {
		at = gorm.Expr("coalesce(disabled_at, ?)", time.Now().UTC().Truncate(time.Microsecond))
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&accountRow{}).Where("name = ?", name).UpdateColumn("disabled_at", at)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		if !disabled {
			return nil
		}
		return tx.Where("person = ?", name).Delete(&sessionRow{}).Error
	})
	return wrap(err, "disable account %s", name)
}

// CheckAccount returns the account whose name and password these are. ErrWrongPassword for an
// unknown name or a wrong password, ErrAccountDisabled for a disabled account (only once the
// password is right, so that it tells nothing to someone who does not know it).
func (s *Store) CheckAccount(ctx context.Context, name, password string) (Account, error) {
	if access.ValidName(name) != nil { // no account has it (and PostgreSQL refuses a NUL in text)
		access.WasteTime(password)
		return Account{}, ErrWrongPassword
	}
	var rows []accountRow
	if err := s.db.WithContext(ctx).Where("name = ?", name).Limit(1).Find(&rows).Error; err != nil {
		return Account{}, wrap(err, "find account")
	}
	if len(rows) == 0 {
		access.WasteTime(password)
		return Account{}, ErrWrongPassword
	}
	ok, err := access.CheckPassword(rows[0].PasswordHash, password)
	if err != nil {
		return Account{}, wrap(err, "check the password of %s", name)
	}
	if !ok {
		return Account{}, ErrWrongPassword
	}
	a := rows[0].account()
	if a.DisabledAt != nil {
		return a, ErrAccountDisabled
	}
	return a, nil
}

// ActiveAccounts counts the accounts not disabled.
func (s *Store) ActiveAccounts(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&accountRow{}).Where("disabled_at IS NULL").Count(&n).Error
	return n, wrap(err, "count accounts")
}
