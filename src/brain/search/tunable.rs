//! How the parameters of `params.rs` reach the search: the `tunables!`
//! macro that declares them. In the release build each parameter is a
//! `const fn NAME() -> T` returning its value, which the compiler folds
//! into the code exactly as the constant it was (same code, same bench
//! signature). In a tuning build (`cargo build --release --features tune`)
//! each reads a slot that `params::set` changes at run time, from
//! `pbrain-sente --param NAME=V` (the SPSA tuner's way in,
//! `scripts/SPSA.md`); the reads are relaxed atomic loads, a little slower.

/// Held by every test that sets a parameter or counts the nodes of a
/// search that reads one: a tuning build's tests share one set of values,
/// so they take turns.
#[cfg(test)]
pub fn test_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A tunable parameter as `params::TUNABLES` lists it.
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    pub name: &'static str,
    /// The value in this source.
    pub default: f64,
    /// An integer type: values are whole numbers.
    pub integer: bool,
    /// Whether the type holds a value exactly.
    pub fits: fn(f64) -> bool,
}

impl Tunable {
    /// Check `value` for this parameter.
    pub fn check(&self, value: f64) -> Result<(), String> {
        if !value.is_finite() || (self.integer && !(self.fits)(value)) {
            return Err(format!(
                "--param {}={value}: not a value of its type",
                self.name
            ));
        }
        Ok(())
    }
}

/// Declares the tunable parameters (each `/// doc` `NAME: TYPE = VALUE;`),
/// `TUNABLES` (their list) and `set` (a parameter changed by name).
macro_rules! tunables {
    ($( $(#[$m:meta])* $name:ident: $t:ty = $v:expr; )*) => {
        $(
            $(#[$m])*
            #[cfg(not(feature = "tune"))]
            #[allow(non_snake_case)]
            #[inline(always)]
            pub const fn $name() -> $t {
                $v
            }

            $(#[$m])*
            #[cfg(feature = "tune")]
            #[allow(non_snake_case)]
            #[inline]
            pub fn $name() -> $t {
                f64::from_bits(VALUES[Slot::$name as usize].load(std::sync::atomic::Ordering::Relaxed)) as $t
            }
        )*

        /// Slots of the tuning build's values, one per parameter.
        #[cfg(feature = "tune")]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Slot {
            $($name),*
        }

        /// The tuning build's values (as f64 bits), in `TUNABLES` order.
        #[cfg(feature = "tune")]
        static VALUES: [std::sync::atomic::AtomicU64; TUNABLES.len()] =
            [$(std::sync::atomic::AtomicU64::new(($v as f64).to_bits())),*];

        /// Every tunable parameter, in this file's order.
        pub const TUNABLES: &[$crate::brain::search::tunable::Tunable] = &[$(
            $crate::brain::search::tunable::Tunable {
                name: stringify!($name),
                default: $v as f64,
                integer: (0.5f64 as $t) as f64 == 0.0,
                fits: |x| (x as $t) as f64 == x,
            }
        ),*];

        /// Set a parameter by name (`pbrain-sente --param NAME=V`), before
        /// any search. An error for a name that is no parameter, a value its
        /// type cannot hold, or a release build (whose values are fixed).
        pub fn set(name: &str, value: f64) -> Result<(), String> {
            let i = TUNABLES
                .iter()
                .position(|t| t.name == name)
                .ok_or_else(|| format!("--param: unknown parameter {name:?} (`pbrain-sente --param list` lists them)"))?;
            TUNABLES[i].check(value)?;
            #[cfg(feature = "tune")]
            {
                VALUES[i].store(value.to_bits(), std::sync::atomic::Ordering::Relaxed);
                Ok(())
            }
            #[cfg(not(feature = "tune"))]
            {
                Err(format!(
                    "--param {name}: this build's parameters are fixed; a tuning build sets them \
                     (cargo build --release --features tune)"
                ))
            }
        }
    };
}
pub(crate) use tunables;

#[cfg(test)]
mod tests {
    use crate::brain::search::params;

    #[test]
    fn the_list_matches_the_values_and_types() {
        let find = |n: &str| params::TUNABLES.iter().find(|t| t.name == n).unwrap();
        assert_eq!(find("RFP_MARGIN").default, f64::from(params::RFP_MARGIN()));
        assert_eq!(find("LMR_BASE").default as f32, params::LMR_BASE());
        assert!(find("RFP_MARGIN").integer && !find("LMR_BASE").integer);
        assert!(find("RFP_MARGIN").check(100.0).is_ok());
        assert!(find("RFP_MARGIN").check(100.5).is_err());
        assert!(find("LMR_BASE").check(0.55).is_ok());
        assert!(find("LMP_BASE").check(-1.0).is_err(), "usize holds no -1");
        assert!(find("LMP_BASE").check(f64::NAN).is_err());
        let mut names: Vec<&str> = params::TUNABLES.iter().map(|t| t.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), params::TUNABLES.len());
    }

    /// The release build refuses every value; the tuning build takes it
    /// (and this test puts the default back). Both refuse unknown names.
    #[test]
    fn set_by_name() {
        let _turn = crate::brain::search::tunable::test_lock();
        let e = params::set("NO_SUCH_PARAM", 1.0).unwrap_err();
        assert!(e.contains("unknown parameter"), "{e}");
        assert!(params::set("RFP_MARGIN", 0.5).is_err());
        let set = params::set("RFP_MARGIN", 121.0);
        if cfg!(feature = "tune") {
            assert_eq!(set, Ok(()));
            assert_eq!(params::RFP_MARGIN(), 121);
            params::set("RFP_MARGIN", 120.0).unwrap();
        } else {
            assert!(set.unwrap_err().contains("fixed"));
        }
        assert_eq!(params::RFP_MARGIN(), 120);
    }
}
