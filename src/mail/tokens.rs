//! Signed tokens in mail links: one-click unsubscribe and address verification, no login needed.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::NaiveDateTime;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Signs and checks the tokens of mail links with a key derived from the server secret.
#[derive(Clone)]
pub struct Signer {
    key: [u8; 32],
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer(..)")
    }
}

/// What a valid unsubscribe token says: this user wants no more mail of this kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsubscribe {
    pub user_id: i64,
    pub kind: String,
}

impl Signer {
    /// A signer whose key is derived from `secret` (the session key's master bytes), so every
    /// instance sharing `server.secret_key` signs alike and the cookie key itself is never used.
    pub fn from_secret(secret: &[u8]) -> Signer {
        let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes keys of any length");
        mac.update(b"slowfuse mail link tokens v1");
        Signer {
            key: mac.finalize().into_bytes().into(),
        }
    }

    fn mac(&self, message: &str) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("any key length");
        mac.update(message.as_bytes());
        mac
    }

    fn sign(&self, message: &str) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(message).finalize().into_bytes())
    }

    fn check(&self, message: &str, signature: &str) -> bool {
        match URL_SAFE_NO_PAD.decode(signature) {
            Ok(bytes) => self.mac(message).verify_slice(&bytes).is_ok(),
            Err(_) => false,
        }
    }

    /// The token of a one-click unsubscribe link for one kind of mail.
    pub fn unsubscribe_token(&self, user_id: i64, kind: &str) -> String {
        let sig = self.sign(&format!("unsubscribe:{user_id}:{kind}"));
        format!("{user_id}.{kind}.{sig}")
    }

    /// Reads an unsubscribe token; `None` when it is malformed or its signature is wrong.
    pub fn check_unsubscribe(&self, token: &str) -> Option<Unsubscribe> {
        let mut parts = token.trim().splitn(3, '.');
        let user_id: i64 = parts.next()?.parse().ok()?;
        let kind = parts.next()?;
        let sig = parts.next()?;
        self.check(&format!("unsubscribe:{user_id}:{kind}"), sig)
            .then(|| Unsubscribe {
                user_id,
                kind: kind.to_string(),
            })
    }

    /// The token of an address-verification link: bound to the address (a changed address
    /// needs a new link) and valid until `expires`.
    pub fn verify_token(&self, user_id: i64, email: &str, expires: NaiveDateTime) -> String {
        let until = expires.and_utc().timestamp();
        let sig = self.sign(&verify_message(user_id, email, until));
        format!("{user_id}.{until}.{sig}")
    }

    /// The user a verification token names, before its signature is checked.
    pub fn verify_token_user(token: &str) -> Option<i64> {
        token.trim().split('.').next()?.parse().ok()
    }

    /// Whether a verification token is valid for this user's current address at `now`.
    pub fn check_verify(&self, token: &str, email: &str, now: NaiveDateTime) -> bool {
        let mut parts = token.trim().splitn(3, '.');
        let (Some(user), Some(until), Some(sig)) = (parts.next(), parts.next(), parts.next())
        else {
            return false;
        };
        let (Ok(user_id), Ok(until)) = (user.parse::<i64>(), until.parse::<i64>()) else {
            return false;
        };
        until > now.and_utc().timestamp() && self.check(&verify_message(user_id, email, until), sig)
    }
}

fn verify_message(user_id: i64, email: &str, until: i64) -> String {
    format!("verify:{user_id}:{}:{until}", email.trim().to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn unsubscribe_tokens_name_their_user_and_kind_and_resist_tampering() {
        let signer = Signer::from_secret(b"a secret of some length, at least thirty-two");
        let token = signer.unsubscribe_token(42, "your_turn");
        assert_eq!(
            signer.check_unsubscribe(&token),
            Some(Unsubscribe {
                user_id: 42,
                kind: "your_turn".into()
            })
        );
        let other_user = token.replacen("42.", "43.", 1);
        assert_eq!(signer.check_unsubscribe(&other_user), None);
        let other_kind = token.replace("your_turn", "game_over");
        assert_eq!(signer.check_unsubscribe(&other_kind), None);
        let other_key = Signer::from_secret(b"another secret, also thirty-two long");
        assert_eq!(other_key.check_unsubscribe(&token), None);
        assert_eq!(signer.check_unsubscribe("garbage"), None);
        assert_eq!(signer.check_unsubscribe(""), None);
    }

    #[test]
    fn verify_tokens_expire_and_are_bound_to_the_address() {
        let signer = Signer::from_secret(b"a secret of some length, at least thirty-two");
        let token = signer.verify_token(7, "Ann@Example.org", at("2026-12-08 12:00"));
        assert_eq!(Signer::verify_token_user(&token), Some(7));
        assert!(signer.check_verify(&token, "ann@example.org", at("2026-12-01 12:00")));
        assert!(!signer.check_verify(&token, "ann@example.org", at("2026-12-08 12:00")));
        assert!(!signer.check_verify(&token, "bob@example.org", at("2026-12-01 12:00")));
        let forged = token.replacen("7.", "8.", 1);
        assert!(!signer.check_verify(&forged, "ann@example.org", at("2026-12-01 12:00")));
    }
}
