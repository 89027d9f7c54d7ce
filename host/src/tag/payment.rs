//! `payment`: Marks endpoints that move money or take payment details (checkout, billing, refunds, cards). One strong word in the URL or a parameter name, or two
//! different weak ones ([`super::wordset`]).

use super::wordset::{word_tagger, WordSet};
use super::Tagger;

pub const TAGGER: Tagger = Tagger {
    id: "payment",
    label: "Payment",
    summary: "Marks endpoints that move money or take payment details (checkout, billing, refunds, cards).",
    always: false,
    apply,
};

const WORDS: WordSet = WordSet {
    strong_url: &[
        "payment",
        "payments",
        "checkout",
        "billing",
        "invoice",
        "invoices",
        "refund",
        "refunds",
        "payout",
        "payouts",
        "pay",
        "stripe",
        "paypal",
        "braintree",
    ],
    weak_url: &[
        "charge",
        "charges",
        "subscription",
        "subscriptions",
        "wallet",
        "card",
        "cards",
        "cart",
        "purchase",
        "transaction",
        "transactions",
        "coupon",
        "pricing",
    ],
    strong_params: &[
        "card number",
        "cvv",
        "cvc",
        "iban",
        "account number",
        "routing number",
        "payment method",
        "payment intent",
    ],
    weak_params: &[
        "amount",
        "currency",
        "price",
        "card",
        "expiry",
        "exp month",
        "billing address",
    ],
};

word_tagger!(WORDS, "payment", "Handles payments: check amounts, currency and ownership on the server, idempotency and replay.");
