//! The JWTs this client signs: client assertions (`private_key_jwt`, RFC 7523 §2.2) and
//! DPoP proofs (RFC 9449 §4). Encoding and signing go through `jsonwebtoken`, a maintained
//! JWT library on ring; the DPoP keys are made with ring itself (ring is in the build for
//! TLS already, so neither brings a second set of primitives).

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{
    AlgorithmParameters, CommonParameters, EllipticCurve, EllipticCurveKeyParameters,
    EllipticCurveKeyType, Jwk,
};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair as _};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::AuthError;

/// A private key and the algorithm it signs with.
#[derive(Clone)]
pub struct SigningKey {
    algorithm: Algorithm,
    key: EncodingKey,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// A key from its PEM (PKCS#8, or PKCS#1 for RSA) for the JWS algorithm named
    /// (`ES256`, `RS256`, `PS256`, `EdDSA`, ...); the error says which part is wrong.
    pub fn from_pem(pem: &str, algorithm: &str) -> Result<Self, AuthError> {
        let bad = |detail: String| AuthError::not_completed(format!("the signing key: {detail}"));
        let algorithm: Algorithm = algorithm
            .parse()
            .map_err(|_| bad(format!("{algorithm:?} is not a JWS algorithm")))?;
        let pem = pem.as_bytes();
        let key = match algorithm {
            Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem),
            Algorithm::RS256
            | Algorithm::RS384
            | Algorithm::RS512
            | Algorithm::PS256
            | Algorithm::PS384
            | Algorithm::PS512 => EncodingKey::from_rsa_pem(pem),
            Algorithm::EdDSA => EncodingKey::from_ed_pem(pem),
            _ => {
                return Err(bad(format!(
                    "{algorithm:?} is not a signature with a key pair"
                )));
            }
        }
        .map_err(|e| bad(format!("not a {algorithm:?} private key in PEM: {e}")))?;
        Ok(Self { algorithm, key })
    }

    /// Signs `claims` under a header with the given type and public key.
    fn sign(
        &self,
        typ: &str,
        jwk: Option<Jwk>,
        claims: &impl Serialize,
    ) -> Result<String, AuthError> {
        let mut header = Header::new(self.algorithm);
        header.typ = Some(typ.to_owned());
        header.jwk = jwk;
        jsonwebtoken::encode(&header, claims, &self.key)
            .map_err(|e| AuthError::not_completed(format!("could not sign a JWT: {e}")))
    }
}

/// The claims of a client assertion.
#[derive(Serialize)]
struct Assertion<'a> {
    iss: &'a str,
    sub: &'a str,
    aud: &'a str,
    iat: u64,
    exp: u64,
    jti: String,
}

/// A client's proof of itself at `audience` (the authorization server's issuer, as the
/// client-credentials extension asks): short-lived and never the same twice.
pub fn client_assertion(
    key: &SigningKey,
    client_id: &str,
    audience: &str,
) -> Result<String, AuthError> {
    let iat = now();
    let claims = Assertion {
        iss: client_id,
        sub: client_id,
        aud: audience,
        iat,
        exp: iat + 300,
        jti: random_id()?,
    };
    key.sign("JWT", None, &claims)
}

/// A P-256 key made for DPoP, kept with the grant it is bound to (its PKCS#8 document,
/// base64url) so that a refresh and every request after a restart prove the same key.
#[derive(Clone)]
pub struct ProofKey {
    pkcs8: Vec<u8>,
    signing: SigningKey,
    public: Jwk,
}

impl std::fmt::Debug for ProofKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofKey")
            .field("thumbprint", &self.thumbprint())
            .finish_non_exhaustive()
    }
}

impl ProofKey {
    pub fn generate() -> Result<Self, AuthError> {
        let rng = ring::rand::SystemRandom::new();
        let document = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| AuthError::not_completed("could not make a DPoP key"))?;
        Self::from_pkcs8(document.as_ref())
    }

    /// The key kept as [`Self::to_kept`] wrote it.
    pub fn from_kept(kept: &str) -> Result<Self, AuthError> {
        let pkcs8 = URL_SAFE_NO_PAD
            .decode(kept)
            .map_err(|e| AuthError::not_completed(format!("the kept DPoP key: {e}")))?;
        Self::from_pkcs8(&pkcs8)
    }

    pub fn to_kept(&self) -> String {
        URL_SAFE_NO_PAD.encode(&self.pkcs8)
    }

    fn from_pkcs8(pkcs8: &[u8]) -> Result<Self, AuthError> {
        let bad = |what: &str| AuthError::not_completed(format!("the DPoP key: {what}"));
        let rng = ring::rand::SystemRandom::new();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8, &rng)
            .map_err(|_| bad("not a P-256 key"))?;
        // The uncompressed point: 0x04, then x and y, 32 bytes each.
        let point = pair.public_key().as_ref();
        let (x, y) = point
            .get(1..33)
            .zip(point.get(33..65))
            .ok_or_else(|| bad("not an uncompressed point"))?;
        let public = Jwk {
            common: CommonParameters::default(),
            algorithm: AlgorithmParameters::EllipticCurve(EllipticCurveKeyParameters {
                key_type: EllipticCurveKeyType::EC,
                curve: EllipticCurve::P256,
                x: URL_SAFE_NO_PAD.encode(x),
                y: URL_SAFE_NO_PAD.encode(y),
            }),
        };
        Ok(Self {
            pkcs8: pkcs8.to_vec(),
            signing: SigningKey {
                algorithm: Algorithm::ES256,
                key: EncodingKey::from_ec_der(pkcs8),
            },
            public,
        })
    }

    /// The JWK SHA-256 thumbprint (RFC 7638) a bound token's `cnf.jkt` names.
    pub fn thumbprint(&self) -> String {
        let AlgorithmParameters::EllipticCurve(ec) = &self.public.algorithm else {
            unreachable!("a proof key is P-256")
        };
        // The required members in lexicographic order, without whitespace.
        let canonical = format!(
            r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
            ec.x, ec.y
        );
        URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
    }

    /// A proof for one request: `method` and `url` (its query and fragment left out), the
    /// access token it carries (`ath`), and the server's latest nonce.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, AuthError> {
        #[derive(Serialize)]
        struct Claims<'a> {
            jti: String,
            htm: &'a str,
            htu: String,
            iat: u64,
            #[serde(skip_serializing_if = "Option::is_none")]
            ath: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            nonce: Option<&'a str>,
        }
        let htu = match url::Url::parse(url) {
            Ok(mut parsed) => {
                parsed.set_query(None);
                parsed.set_fragment(None);
                parsed.to_string()
            }
            Err(_) => url.to_owned(),
        };
        let claims = Claims {
            jti: random_id()?,
            htm: method,
            htu,
            iat: now(),
            ath: access_token.map(|t| URL_SAFE_NO_PAD.encode(Sha256::digest(t.as_bytes()))),
            nonce,
        };
        self.signing
            .sign("dpop+jwt", Some(self.public.clone()), &claims)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// 128 random bits, base64url: a `jti` no one can guess or repeat.
fn random_id() -> Result<String, AuthError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| AuthError::not_completed(format!("no randomness: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(jwt: &str, index: usize) -> serde_json::Value {
        let text = jwt.split('.').nth(index).expect("a JWT part");
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(text).expect("base64url")).expect("JSON")
    }

    #[test]
    fn a_proof_names_its_public_key_its_request_and_the_tokens_hash() {
        let key = ProofKey::generate().unwrap();
        let proof = key
            .proof(
                "POST",
                "https://mcp.example.com/mcp?x=1#f",
                Some("tok"),
                Some("n-1"),
            )
            .unwrap();
        let header = part(&proof, 0);
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert_eq!(header["jwk"]["crv"], "P-256");
        assert!(header["jwk"].get("d").is_none(), "{header}");
        let claims = part(&proof, 1);
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "https://mcp.example.com/mcp");
        assert_eq!(claims["nonce"], "n-1");
        assert_eq!(
            claims["ath"],
            URL_SAFE_NO_PAD.encode(Sha256::digest(b"tok"))
        );
        let again = key
            .proof("POST", "https://mcp.example.com/mcp", None, None)
            .unwrap();
        assert_ne!(part(&again, 1)["jti"], claims["jti"]);
        assert!(part(&again, 1).get("ath").is_none());
    }

    #[test]
    fn a_kept_key_is_the_same_key() {
        let key = ProofKey::generate().unwrap();
        let kept = ProofKey::from_kept(&key.to_kept()).unwrap();
        assert_eq!(kept.thumbprint(), key.thumbprint());
        assert_eq!(key.thumbprint().len(), 43);
        assert!(!format!("{key:?}").contains(&key.to_kept()));
    }

    #[test]
    fn a_wrong_key_or_algorithm_is_named() {
        let wrong = SigningKey::from_pem("not a key", "ES256").unwrap_err();
        assert!(wrong.to_string().contains("ES256 private key"), "{wrong}");
        let alg = SigningKey::from_pem("", "HS256").unwrap_err();
        assert!(alg.to_string().contains("key pair"), "{alg}");
    }
}
