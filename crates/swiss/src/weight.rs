//! Wide unsigned integers for lexicographic edge weights, and the layout of the criteria
//! bit fields inside them (most significant field = highest-priority criterion).
//!
//! Each field is sized so that the sum of that field over a whole matching (and twice it,
//! for the matching duals) can never carry into the next field: comparing two matching
//! weights therefore compares the criteria lexicographically.

use std::cmp::Ordering;

/// Number of 64-bit limbs of a [`Wide`] weight.
pub const LIMBS: usize = 8;

/// A fixed-width unsigned integer of `L` little-endian 64-bit limbs.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct WideN<const L: usize>(pub [u64; L]);

/// The weight type of the criteria layout (8 limbs); matchings may run on a narrower
/// [`WideN`] when the layout fits.
pub type Wide = WideN<LIMBS>;

impl<const L: usize> Default for WideN<L> {
    fn default() -> Self {
        WideN([0; L])
    }
}

impl<const L: usize> std::fmt::Debug for WideN<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for l in self.0.iter().rev() {
            write!(f, "{l:016x}")?;
        }
        Ok(())
    }
}

impl<const L: usize> Ord for WideN<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for WideN<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> WideN<L> {
    pub const ZERO: WideN<L> = WideN([0; L]);

    /// Whether the value is zero (limb by limb, no memory comparison call).
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().fold(0, |a, &l| a | l) == 0
    }

    /// Keeps the low `M` limbs (callers guarantee the value fits).
    pub fn narrow<const M: usize>(self) -> WideN<M> {
        let mut r = [0u64; M];
        for (i, slot) in r.iter_mut().enumerate() {
            if i < L {
                *slot = self.0[i];
            }
        }
        WideN(r)
    }

    /// Wrapping addition.
    #[inline]
    pub fn plus(self, o: WideN<L>) -> WideN<L> {
        let mut r = [0u64; L];
        let mut carry = false;
        for (i, slot) in r.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *slot = s2;
            carry = c1 | c2;
        }
        WideN(r)
    }

    /// Wrapping subtraction (callers guarantee `self >= o`).
    #[inline]
    pub fn minus(self, o: WideN<L>) -> WideN<L> {
        let mut r = [0u64; L];
        let mut borrow = false;
        for (i, slot) in r.iter_mut().enumerate() {
            let (s1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (s2, b2) = s1.overflowing_sub(borrow as u64);
            *slot = s2;
            borrow = b1 | b2;
        }
        WideN(r)
    }

    /// `self − o`, or `None` when `o` is larger.
    pub fn checked_minus(self, o: WideN<L>) -> Option<WideN<L>> {
        (self >= o).then(|| self.minus(o))
    }

    /// Wrapping multiplication by a small factor.
    pub fn times(self, k: u64) -> WideN<L> {
        let mut r = [0u64; L];
        let mut carry = 0u128;
        for (i, slot) in r.iter_mut().enumerate() {
            let x = u128::from(self.0[i]) * u128::from(k) + carry;
            *slot = x as u64;
            carry = x >> 64;
        }
        WideN(r)
    }

    /// Division by two.
    #[inline]
    pub fn half(self) -> WideN<L> {
        let mut r = [0u64; L];
        for (i, slot) in r.iter_mut().enumerate() {
            let hi = if i + 1 < L { self.0[i + 1] << 63 } else { 0 };
            *slot = (self.0[i] >> 1) | hi;
        }
        WideN(r)
    }

    /// Adds `value << shift`.
    pub fn add_at(&mut self, shift: u32, value: u64) {
        if value == 0 {
            return;
        }
        let limb = (shift / 64) as usize;
        let off = shift % 64;
        if limb >= L {
            return;
        }
        // Adds `value << shift` (wrapping) touching only the limbs it reaches: the weight
        // of an edge is built field by field on the hot path.
        let (sum, mut carry) = self.0[limb].overflowing_add(value << off);
        self.0[limb] = sum;
        let mut add = if off > 0 { value >> (64 - off) } else { 0 };
        let mut i = limb + 1;
        while i < L && (carry || add != 0) {
            let (s1, c1) = self.0[i].overflowing_add(add);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            self.0[i] = s2;
            carry = c1 | c2;
            add = 0;
            i += 1;
        }
    }

    /// Extracts `bits` bits starting at `shift` (bits beyond the width read as zero): the
    /// limb holding the first bit and the next, shifted together (the slack floors of the
    /// edge cache take one field of each of millions of pairs).
    pub fn field(&self, shift: u32, bits: u32) -> u64 {
        let bits = bits.min(64);
        if bits == 0 {
            return 0;
        }
        let (limb, off) = ((shift / 64) as usize, shift % 64);
        let low = self.0.get(limb).map_or(0, |&l| l >> off);
        let high = match self.0.get(limb + 1) {
            Some(&l) if off > 0 => l << (64 - off),
            _ => 0,
        };
        let out = low | high;
        if bits == 64 {
            out
        } else {
            out & ((1u64 << bits) - 1)
        }
    }

    /// Keeps only the bits at or above `shift`.
    pub fn truncate_below(self, shift: u32) -> WideN<L> {
        let mut r = self;
        for (i, l) in r.0.iter_mut().enumerate() {
            let lo = i as u32 * 64;
            if lo + 64 <= shift {
                *l = 0;
            } else if lo < shift {
                *l &= !((1u64 << (shift - lo)) - 1);
            }
        }
        r
    }
}

/// One criterion field in the weight layout.
#[derive(Debug, Clone)]
pub struct Field {
    /// Criterion name (e.g. "C12"), for explanations.
    pub name: String,
    pub shift: u32,
    pub bits: u32,
    /// The largest total of the field over a matching the layout was sized for (its value
    /// per edge times the pairs that can carry it; for a field pushed by its width, all
    /// ones of that width); the bits hold it.
    pub capacity: u64,
}

/// Allocates fields from the most significant to the least significant.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub fields: Vec<Field>,
}

impl Layout {
    /// Adds a field whose per-edge value is at most `max_per_edge`, summed over at most
    /// `max_edges` edges. Returns the field index.
    pub fn push(&mut self, name: &str, max_per_edge: u64, max_edges: u64) -> usize {
        let capacity = max_per_edge.saturating_mul(max_edges);
        let bits = 64 - capacity.max(1).leading_zeros();
        self.fields.push(Field {
            name: name.to_string(),
            shift: 0,
            bits,
            capacity,
        });
        self.fields.len() - 1
    }

    /// Adds a field of exactly `bits` bits.
    pub fn push_bits(&mut self, name: &str, bits: u32) -> usize {
        self.fields.push(Field {
            name: name.to_string(),
            shift: 0,
            bits,
            capacity: u64::MAX >> 64u32.saturating_sub(bits).min(63),
        });
        self.fields.len() - 1
    }

    /// Fixes the shifts (lowest field at bit 1: bit 0 stays free so weights are even).
    /// Returns the total number of bits, or `None` if they do not fit.
    pub fn finish(&mut self) -> Option<u32> {
        let mut shift = 1u32;
        for f in self.fields.iter_mut().rev() {
            f.shift = shift;
            shift += f.bits;
        }
        if shift + 2 > (LIMBS as u32) * 64 {
            None
        } else {
            Some(shift)
        }
    }

    /// The name of the most significant field in which `a` and `b` differ.
    pub fn first_difference(&self, a: &Wide, b: &Wide) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| a.field(f.shift, f.bits) != b.field(f.shift, f.bits))
            .map(|f| f.name.as_str())
    }
}

/// A xorshift generator from `seed` (nonzero): the deterministic pseudo-random numbers of
/// the crate's tests.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field read limb-wise equals its bits read one by one, across limb boundaries and
    /// past the width.
    #[test]
    fn a_field_is_its_bits_one_by_one() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let w = WideN::<3>([next(), next(), next()]);
            for shift in [0, 1, 5, 63, 64, 65, 100, 127, 128, 150, 191, 192, 250] {
                for bits in [0, 1, 7, 24, 63, 64, 70] {
                    let mut want = 0u64;
                    for b in 0..bits.min(64) {
                        let pos = shift + b;
                        let limb = (pos / 64) as usize;
                        if limb < 3 && (w.0[limb] >> (pos % 64)) & 1 == 1 {
                            want |= 1 << b;
                        }
                    }
                    assert_eq!(w.field(shift, bits), want, "field({shift}, {bits})");
                }
            }
        }
    }

    /// `times(k)` equals adding the value k times, carries across limbs included.
    #[test]
    fn times_equals_repeated_addition() {
        let mut x = WideN::<3>([u64::MAX - 5, u64::MAX, 7]);
        x.add_at(70, 3);
        for k in [0u64, 1, 2, 3, 17, 1000] {
            let mut sum = WideN::<3>::ZERO;
            for _ in 0..k {
                sum = sum.plus(x);
            }
            assert_eq!(x.times(k), sum, "k = {k}");
        }
    }

    /// `add_at` equals adding the shifted value as a whole number (carries included).
    #[test]
    fn add_at_equals_adding_the_shifted_value() {
        let mut rnd = xorshift(99);
        for _ in 0..5000 {
            let mut a = WideN::<3>([rnd(), rnd(), rnd()]);
            if rnd().is_multiple_of(2) {
                a.0[(rnd() % 3) as usize] = u64::MAX;
            }
            let shift = (rnd() % 200) as u32;
            let value = if rnd().is_multiple_of(3) {
                rnd()
            } else {
                rnd() % 1000
            };
            let mut v = WideN::<3>::ZERO;
            let (limb, off) = ((shift / 64) as usize, shift % 64);
            if limb < 3 {
                v.0[limb] = value << off;
                if off > 0 && limb + 1 < 3 {
                    v.0[limb + 1] = value >> (64 - off);
                }
            }
            let expected = a.plus(v);
            a.add_at(shift, value);
            assert_eq!(a, expected, "shift {shift} value {value}");
        }
    }

    #[test]
    fn add_sub_half_roundtrip() {
        let mut a = Wide::ZERO;
        a.add_at(63, 3);
        a.add_at(200, 5);
        let mut b = Wide::ZERO;
        b.add_at(10, 7);
        let c = a.plus(b);
        assert_eq!(c.minus(b), a);
        assert!(c > a);
        assert_eq!(a.plus(a).half(), a);
        assert_eq!(a.field(200, 3), 5);
        assert_eq!(a.field(63, 2), 3);
    }

    #[test]
    fn truncate() {
        let mut a = Wide::ZERO;
        a.add_at(3, 1);
        a.add_at(70, 1);
        let t = a.truncate_below(64);
        assert_eq!(t.field(3, 1), 0);
        assert_eq!(t.field(70, 1), 1);
    }
}
