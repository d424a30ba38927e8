package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

const (
	// KeyPrefix starts every plaintext API key.
	KeyPrefix = "ek_live_"
	// keySecretLen is the number of base62 characters after KeyPrefix.
	keySecretLen = 32
	// KeyLen is the length of a well-formed plaintext key.
	KeyLen = len(KeyPrefix) + keySecretLen
	// displayLen is how many secret characters the display prefix reveals.
	displayLen = 4
	// idPrefix and idRandLen shape key ids: "key_" + 12 base62.
	idPrefix  = "key_"
	idRandLen = 12
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// randBase62 returns n characters drawn uniformly from base62 using crypto/rand.
// Bytes >= 248 (= 4*62) are rejected so that b%62 carries no modulo bias.
func randBase62(n int) (string, error) {
	out := make([]byte, 0, n)
	var buf [64]byte
	for len(out) < n {
		if _, err := rand.Read(buf[:]); err != nil {
			return "", fmt.Errorf("reading crypto/rand: %w", err)
		}
		for _, b := range buf {
			if b >= 248 {
				continue
			}
			out = append(out, base62[b%62])
			if len(out) == n {
				break
			}
		}
	}
	return string(out), nil
}

// newPlaintextKey returns a fresh key and its display prefix.
func newPlaintextKey() (plaintext, display string, err error) {
	secret, err := randBase62(keySecretLen)
	if err != nil {
		return "", "", err
	}
	plaintext = KeyPrefix + secret
	return plaintext, displayPrefix(plaintext), nil
}

// newKeyID returns "key_" + 12 random base62 characters.
func newKeyID() (string, error) {
	r, err := randBase62(idRandLen)
	if err != nil {
		return "", err
	}
	return idPrefix + r, nil
}

// displayPrefix is what may be shown of a key: "ek_live_" and 4 secret characters.
func displayPrefix(plaintext string) string {
	return plaintext[:len(KeyPrefix)+displayLen]
}

// wellFormedKey reports whether s has the exact shape of an issued key. It runs on
// untrusted input before any database access.
func wellFormedKey(s string) bool {
	if len(s) != KeyLen || s[:len(KeyPrefix)] != KeyPrefix {
		return false
	}
	for i := len(KeyPrefix); i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// hashKey returns the SHA-256 of the plaintext key, raw and hex-encoded.
func hashKey(plaintext string) ([sha256.Size]byte, string) {
	sum := sha256.Sum256([]byte(plaintext))
	return sum, hex.EncodeToString(sum[:])
}
