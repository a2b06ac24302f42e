package stats

import "math"

// ChiSquareSurvival returns the probability that a chi-square variable with
// df degrees of freedom is at least x: the p-value of a chi-square test,
// Q(df/2, x/2), the regularized upper incomplete gamma function. It is
// written here (series and continued fraction, as in Numerical Recipes
// §6.2) rather than taken from a module, so that simulate's p-values depend
// on nothing the module proxy serves. It returns NaN for df < 1 or x NaN,
// and 1 for x ≤ 0.
func ChiSquareSurvival(x float64, df int) float64 {
	if df < 1 || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	return upperGamma(float64(df)/2, x/2)
}

// gammaEpsilon is the relative precision the series and the continued
// fraction stop at; gammaSteps bounds their terms (both converge in far
// fewer for the degrees of freedom a lot table gives).
const (
	gammaEpsilon = 1e-15
	gammaSteps   = 10_000
)

// upperGamma returns Q(a, x) = Γ(a, x)/Γ(a) for a > 0, x > 0: by P's series
// below a+1, where it converges fast, and by Q's continued fraction above.
func upperGamma(a, x float64) float64 {
	if x < a+1 {
		return 1 - lowerSeries(a, x)
	}
	return upperFraction(a, x)
}

// prefactor is x^a e^-x / Γ(a), computed in logarithms so that it neither
// overflows nor underflows before it must.
func prefactor(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	return math.Exp(a*math.Log(x) - x - lg)
}

// lowerSeries is P(a, x) = e^-x x^a / Γ(a+1) · Σ x^n / ((a+1)…(a+n)).
func lowerSeries(a, x float64) float64 {
	term := 1 / a
	sum := term
	for n := 1; n < gammaSteps; n++ {
		term *= x / (a + float64(n))
		sum += term
		if math.Abs(term) < math.Abs(sum)*gammaEpsilon {
			break
		}
	}
	return sum * prefactor(a, x)
}

// upperFraction is Q(a, x) by its continued fraction, evaluated with the
// modified Lentz method.
func upperFraction(a, x float64) float64 {
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < gammaSteps; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < gammaEpsilon {
			break
		}
	}
	return prefactor(a, x) * h
}
