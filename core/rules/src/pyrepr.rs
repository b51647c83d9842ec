//! Python-style text of values in error messages (`repr` of strings and floats), so that the
//! native engine's reasons read exactly like the Python engine's.

use serde_json::Value;

use crate::printable::is_printable;

/// Python's `repr` of a string: single quotes unless the text holds `'` and no `"`.
pub fn str_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !is_printable(c) => {
                let code = u32::from(c);
                if code <= 0xff {
                    out.push_str(&format!("\\x{code:02x}"));
                } else if code <= 0xffff {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr` of a float: the shortest round-trip digits, with `.0` for whole numbers and
/// an exponent (`1e+16`, `1e-05`) outside 1e-4 .. 1e16.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let body = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            let (a, b) = digits.split_at(point as usize);
            format!("{a}.{b}")
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{frac}e{esign}{:02}", exp.abs())
    }
}

/// How Python's JSON reader describes a value's kind in a type error (`_kind`).
pub fn kind_of(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => format!("the number {}", echo_repr(i.to_string())),
            (None, Some(u), _) => format!("the number {}", echo_repr(u.to_string())),
            (None, None, Some(f)) => format!("the number {}", echo_repr(float_repr(f))),
            _ => format!("the number {}", echo_repr(n.to_string())),
        },
        Value::String(s) => format!("the string {}", echo_str(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Most characters of a caller's value an error message repeats (Python's `ECHO_LIMIT`).
pub const ECHO_LIMIT: usize = 64;

/// A string as an error message repeats it (Python's `echo`): its `repr`, cut to
/// [`ECHO_LIMIT`] characters with the original length.
pub fn echo_str(text: &str) -> String {
    let n = text.chars().count();
    if n > ECHO_LIMIT {
        let head: String = text.chars().take(ECHO_LIMIT).collect();
        return format!("{}... ({n} characters in all)", str_repr(&head));
    }
    echo_repr(str_repr(text))
}

/// An already formatted `repr` as an error message repeats it: cut to [`ECHO_LIMIT`]
/// characters with its length.
pub fn echo_repr(text: String) -> String {
    let n = text.chars().count();
    if n > ECHO_LIMIT {
        let head: String = text.chars().take(ECHO_LIMIT).collect();
        return format!("{head}... ({n} characters in all)");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_like_python() {
        assert_eq!(float_repr(3.5), "3.5");
        assert_eq!(float_repr(3.0), "3.0");
        assert_eq!(float_repr(-0.0), "-0.0");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(1e-5), "1e-05");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(123456789012345678.0), "1.2345678901234568e+17");
        assert_eq!(float_repr(1e30), "1e+30");
        assert_eq!(float_repr(0.1), "0.1");
        assert_eq!(float_repr(1234.5), "1234.5");
    }

    #[test]
    fn strings_read_like_python() {
        assert_eq!(str_repr("abc"), "'abc'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(str_repr("a\nb\\"), "'a\\nb\\\\'");
        assert_eq!(str_repr("\u{1}"), "'\\x01'");
        assert_eq!(str_repr("Mjöllnir"), "'Mjöllnir'");
        // Format characters, separators and unassigned code points, as Python 3.11 writes them.
        assert_eq!(str_repr("a\u{2060}b"), "'a\\u2060b'");
        assert_eq!(str_repr("\u{3000}\u{a0}"), "'\\u3000\\xa0'");
        assert_eq!(str_repr("\u{378}\u{e0001}"), "'\\u0378\\U000e0001'");
        assert_eq!(str_repr("\u{1f600}"), "'\u{1f600}'");
    }

    #[test]
    fn long_values_are_cut_like_python() {
        let long = "x".repeat(70);
        assert_eq!(
            echo_str(&long),
            format!("'{}'... (70 characters in all)", "x".repeat(64))
        );
        // 40 newlines: a repr of 82 characters, cut after 64 (mid-escape, as Python cuts it).
        let newlines = "\n".repeat(40);
        let want = format!("'{}\\... (82 characters in all)", "\\n".repeat(31));
        assert_eq!(echo_str(&newlines), want);
        assert_eq!(echo_str("ok"), "'ok'");
    }
}
