//! The values of the command line's options that clap does not read by itself: thresholds,
//! rates, sizes, CORS origins, requests per second.

/// `--cors`: `*`, `null` or an origin as browsers send it: `scheme://host[:port]`, nothing after.
#[cfg(feature = "service")]
pub fn parse_origin(s: &str) -> Result<String, String> {
    let wrong = || {
        format!(
            "`{}` is not an origin such as https://example.com or http://localhost:3000 (or *)",
            s.escape_debug()
        )
    };
    if s == "*" || s == "null" {
        return Ok(s.to_string());
    }
    let (scheme, rest) = s.split_once("://").ok_or_else(wrong)?;
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let (host, port) = match rest.rsplit_once(':') {
        // An IPv6 host keeps its colons inside brackets.
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(ip) => ip.parse::<std::net::Ipv6Addr>().is_ok(),
        None => {
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        }
    };
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok());
    if scheme_ok && host_ok && port_ok {
        Ok(s.to_string())
    } else {
        Err(wrong())
    }
}

/// `100/s` or `100`: a positive whole number of requests per second.
#[cfg(feature = "service")]
pub fn parse_per_second(s: &str) -> Result<std::num::NonZeroU32, String> {
    let number = s.trim().strip_suffix("/s").unwrap_or(s.trim());
    number
        .trim()
        .parse::<std::num::NonZeroU32>()
        .map_err(|_| format!("`{s}` is not a rate such as 100/s"))
}

pub fn parse_rate(s: &str) -> Result<f64, String> {
    let value: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if !(0.0..=1.0).contains(&value) {
        return Err(format!("{value} is outside 0..1"));
    }
    Ok(value)
}

pub fn parse_learning_rate(s: &str) -> Result<f64, String> {
    let value: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if value > 0.0 && value <= 1.0 {
        Ok(value)
    } else {
        Err(format!(
            "{s} is not in (0, 1]: a learning rate is above 0 and at most 1"
        ))
    }
}

/// A size in bytes: a whole number, alone or with a unit of 1024: `K`/`KiB`, `M`/`MiB`,
/// `G`/`GiB` (any case), or `B`. At least 1 byte.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let text = s.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number.parse().map_err(|_| {
        format!("`{s}` is not a size: a whole number of bytes, or with a unit such as 64MiB")
    })?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        _ => {
            return Err(format!(
                "`{s}` is not a size: the units are B, KiB, MiB and GiB (K, M, G), of 1024"
            ));
        }
    };
    match number.checked_mul(1 << shift) {
        Some(0) => Err("a size of 0 bytes reads nothing".to_string()),
        Some(bytes) if bytes <= 1 << 50 => Ok(bytes),
        _ => Err(format!("`{s}` is too large a size")),
    }
}

pub fn parse_threshold(s: &str) -> Result<f64, String> {
    let value: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    let (low, high) = ragcite::THRESHOLD_RANGE;
    if !(low..=high).contains(&value) {
        return Err(format!("{value} is outside {low}..{high}"));
    }
    Ok(value)
}

/// `--marker REGEX`: the user's own marker form, compiled once.
pub fn parse_marker(s: &str) -> Result<std::sync::Arc<ragcite::marker::MarkerPattern>, String> {
    ragcite::marker::MarkerPattern::new(s)
        .map(std::sync::Arc::new)
        .map_err(|reason| reason.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_outside_the_range_are_refused() {
        assert_eq!(parse_threshold("0.6"), Ok(0.6));
        assert_eq!(parse_threshold("1"), Ok(1.0));
        assert!(parse_threshold("0.05").is_err());
        assert!(parse_threshold("1.5").is_err());
        assert!(parse_threshold("NaN").is_err());
        assert!(parse_threshold("half").is_err());
    }

    #[cfg(feature = "service")]
    #[test]
    fn cors_takes_an_origin_or_a_star() {
        for good in [
            "*",
            "null",
            "https://example.com",
            "http://localhost:3000",
            "http://[::1]:8080",
            "http://127.0.0.1",
        ] {
            assert_eq!(parse_origin(good).as_deref(), Ok(good), "{good}");
        }
        for bad in [
            "",
            "example.com",
            "https://",
            "https://example.com/",
            "https://example.com/path",
            "https://example.com:99999",
            "https://exa mple.com",
            "https://example.com\r\nX: y",
            "**",
            "://example.com",
        ] {
            assert!(parse_origin(bad).is_err(), "{bad:?}");
        }
    }
}
