//! The lexer asks `is_xid_start` of the first character of every token, punctuation and spaces
//! included; unic's tables answer by binary search, about a tenth of parsing time.
//! `unicode-ident` answers the same question (for a newer Unicode) from a bitmap, with an ASCII
//! fast path.

pub use unicode_ident::{is_xid_continue, is_xid_start};
