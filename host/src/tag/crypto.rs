//! `crypto`: Marks endpoints that encrypt, decrypt or sign on request, or hand out or take key material (keys, certificates, signatures). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "crypto",
    label: "Crypto",
    summary: "Marks endpoints that encrypt, decrypt or sign on request, or hand out or take key material (keys, certificates, signatures).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &[
        "encrypt",
        "decrypt",
        "encryption",
        "decryption",
        "cipher",
        "kms",
        "hsm",
        "keypair",
        "keypairs",
        "keystore",
        "jwks",
        "csr",
        "pgp",
        "gpg",
    ],
    weak_url: &[
        "keys",
        "key",
        "sign",
        "signing",
        "verify",
        "certificate",
        "certificates",
        "certs",
        "cert",
        "hash",
        "digest",
        "rotate",
        "secrets",
        "vault",
    ],
    strong_params: &[
        "private key",
        "public key",
        "ciphertext",
        "plaintext",
        "passphrase",
        "key id",
        "key material",
        "encryption key",
        "signing key",
    ],
    weak_params: &[
        "algorithm",
        "alg",
        "signature",
        "digest",
        "salt",
        "iv",
        "nonce",
        "key",
        "certificate",
        "cert",
        "pem",
    ],
};

word_tagger!(WORDS, "crypto", "Does cryptography on request or handles key material: check who may use which key, padding/oracle errors, algorithm choice and that keys never leave in responses.");
