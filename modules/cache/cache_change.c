/*
 * cache_change.c — the levels of a write timeline: binary segmentation
 * with an autocorrelation-aware test, then the burst and the floor.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cache_change.h"

static double mean(const double *v, unsigned a, unsigned b)
{
	double s = 0;

	for (unsigned i = a; i < b; i++)
		s += v[i];
	return b > a ? s / (double)(b - a) : NAN;
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Median of v[a,b); NAN when the copy cannot be made (the split is then not taken). */
static double median(const double *v, unsigned a, unsigned b)
{
	double *w = malloc((b - a) * sizeof(*w)), m;

	if (!w)
		return NAN;
	memcpy(w, v + a, (b - a) * sizeof(*w));
	qsort(w, b - a, sizeof(*w), cmp_d);
	m = (b - a) % 2 ? w[(b - a) / 2] : (w[(b - a) / 2 - 1] + w[(b - a) / 2]) / 2;
	free(w);
	return m;
}

unsigned cache_change_min_drop(unsigned n, double dt)
{
	double s = CACHE_DROP_MIN_SHARE * n * dt;

	s = s < CACHE_DROP_MIN_S ? CACHE_DROP_MIN_S : s > CACHE_DROP_MAX_S ? CACHE_DROP_MAX_S : s;
	return (unsigned)ceil(s / dt - 1e-9);
}

/* Running sums for trying every split t of [a,b) in one pass. */
struct split_scan {
	unsigned a, b;
	double s, s2, l, l2;
};

static void scan_init(struct split_scan *sc, const double *v, unsigned a, unsigned b)
{
	*sc = (struct split_scan){ .a = a, .b = b };
	for (unsigned i = a; i < b; i++) {
		sc->s += v[i];
		sc->s2 += v[i] * v[i];
	}
}

/* Moves the split to t (sample t - 1 joins the left part): the parts' means and their sum of squared errors. */
static double scan_to(struct split_scan *sc, const double *v, unsigned t, double *m1, double *m2)
{
	sc->l += v[t - 1];
	sc->l2 += v[t - 1] * v[t - 1];
	*m1 = sc->l / (t - sc->a);
	*m2 = (sc->s - sc->l) / (sc->b - t);
	return (sc->l2 - sc->l * *m1) + ((sc->s2 - sc->l2) - (sc->s - sc->l) * *m2);
}

/* The least-squares split of [a,b) into two parts of 2 samples or more (a if none). */
static unsigned free_split(const double *v, unsigned a, unsigned b)
{
	struct split_scan sc;
	double best = INFINITY, m1, m2;
	unsigned bt = a;

	scan_init(&sc, v, a, b);
	for (unsigned t = a + 1; t < b; t++) {
		double e = scan_to(&sc, v, t, &m1, &m2);

		if (t - a < 2 || b - t < 2)
			continue;
		if (e < best) {
			best = e;
			bt = t;
		}
	}
	return bt;
}

/*
 * Lag-1 autocorrelation phi of the noise of [a,b) split at t: the
 * residuals around the means of each part split once more at its own
 * best point (a level the split under test leaves in a part, as the
 * middle of SLC -> TLC -> folding, would otherwise read as correlated
 * noise), with the small-sample bias of the k means removed added back
 * (about k (1 + 3 phi) / m), clamped to [0, 0.95].
 */
static double resid_phi(const double *v, unsigned a, unsigned t, unsigned b, double *ss)
{
	unsigned cut[5] = { a, free_split(v, a, t), t, free_split(v, t, b), b }, k = 0;
	double num = 0, den = 0, prev = 0, phi;

	for (unsigned j = 0; j < 4; j++) {
		if (cut[j + 1] <= cut[j])
			continue;
		double m = mean(v, cut[j], cut[j + 1]);

		k++;
		for (unsigned i = cut[j]; i < cut[j + 1]; i++) {
			double r = v[i] - m;

			den += r * r;
			if (i > a)
				num += r * prev;
			prev = r;
		}
	}
	*ss = den;
	phi = den > 0 ? num / den : 0;
	phi += k * (1 + 3 * (phi > 0 ? phi : 0)) / (double)(b - a);
	return phi < 0 ? 0 : phi > 0.95 ? 0.95 : phi;
}

/*
 * The least-squares split of [a,b) (0 none) that the length rules allow:
 * the burst (a == 0) may be 1 sample, a middle level dn, the last one dn
 * when lower than the one before, 2 when higher (a recovery).
 */
static unsigned best_split(const double *v, unsigned n, unsigned a, unsigned b, unsigned dn,
			   double *tstat, double *ratio, double *phi)
{
	struct split_scan sc;
	double best = INFINITY;
	unsigned bt = 0;

	scan_init(&sc, v, a, b);
	for (unsigned t = a + 1; t < b; t++) {
		unsigned n1 = t - a, n2 = b - t;
		double m1, m2, e = scan_to(&sc, v, t, &m1, &m2);

		if (n1 < (a == 0 ? 1u : dn))
			continue;
		if (n2 < (b < n || m2 < m1 ? dn : 2u))
			continue;
		if (e < best) {
			best = e;
			bt = t;
		}
	}
	if (!bt || b - a < 3)
		return 0;
	double m1 = mean(v, a, bt), m2 = mean(v, bt, b), hi = fmax(m1, m2), lo = fmin(m1, m2);
	double sd = sqrt(fmax(best, 0) / (double)(b - a - 2));

	double ss = 0;

	*phi = resid_phi(v, a, bt, b, &ss);
	double se = sd * sqrt(1.0 / (bt - a) + 1.0 / (b - bt)) * sqrt((1 + *phi) / (1 - *phi));

	/* four levels fit it exactly: no noise to test against */
	if (ss <= 1e-18 * hi * hi * (b - a))
		se = 0;

	*ratio = hi > 0 ? lo / hi : 1;
	*tstat = se > 0 ? (hi - lo) / se : hi > lo ? INFINITY : 0;
	/*
	 * a lower level: its median at most CACHE_STEP_RATIO of the higher,
	 * dn samples or more and two thirds of it below the middle of the
	 * two, not a length reached by taking in samples of the level before
	 * (an end-of-run dip)
	 */
	unsigned la = m2 < m1 ? bt : a, lb = m2 < m1 ? b : bt;

	if (m2 < m1 ? b - bt >= dn : a > 0) {
		double med = median(v, la, lb);
		unsigned below = 0;

		for (unsigned i = la; i < lb; i++)
			below += v[i] < (hi + med) / 2;
		if (!(med <= CACHE_STEP_RATIO * hi) || below < dn || below * 3 < 2 * (lb - la))
			*tstat = 0;
	}
	return bt;
}

/* Level of segment [a,b): its mean without the edge samples next to a change, one may be mixed. */
static double level(const double *v, unsigned a, unsigned b, bool prev, bool next)
{
	if (b - a >= 3) {
		a += prev;
		b -= next;
	}
	return mean(v, a, b);
}

void cache_change_point(const double *v, unsigned n, double dt, struct cache_change *c)
{
	unsigned cut[CACHE_SEG_MAX + 1] = { 0 }, ns = 1, dn = cache_change_min_drop(n, dt);
	double lv[CACHE_SEG_MAX];
	bool split = true;

	*c = (struct cache_change){ .phi = NAN };
	c->burst_rate = mean(v, 0, n);
	c->sustained_rate = c->burst_rate;
	c->burst_amount = c->burst_rate * dt * n;
	c->nseg = n ? 1 : 0;
	if (n < 3)
		return;
	cut[1] = n;
	/* binary segmentation: split any segment whose best split passes, until none does */
	while (split && ns < CACHE_SEG_MAX) {
		split = false;
		for (unsigned j = 0; j < ns && !split; j++) {
			double t = 0, ratio = 1, phi = NAN;
			unsigned bt = best_split(v, n, cut[j], cut[j + 1], dn, &t, &ratio, &phi);

			if (!bt || ratio > CACHE_STEP_RATIO || t < CACHE_DROP_T)
				continue;
			for (unsigned k = ns + 1; k > j + 1; k--)
				cut[k] = cut[k - 1];
			cut[j + 1] = bt;
			ns++;
			c->phi = phi;
			split = true;
		}
	}
	c->nseg = ns;
	for (unsigned j = 0; j < ns; j++)
		lv[j] = level(v, cut[j], cut[j + 1], j > 0, j + 1 < ns);
	/* the floor: the lowest level after the first; the burst: the highest before it */
	unsigned f = 0, h = 0;

	for (unsigned j = 1; j < ns; j++)
		if (!f || lv[j] < lv[f])
			f = j;
	if (!f)
		return;
	for (unsigned j = 1; j < f; j++)
		if (lv[j] > lv[h])
			h = j;
	/* the floor's mean and median both (a dip inside it does not make it) */
	if (!(lv[f] <= CACHE_DROP_RATIO * lv[h]) ||
	    !(median(v, cut[f], cut[f + 1]) <= CACHE_DROP_RATIO * lv[h]))
		return;
	c->found = true;
	c->first = cut[h + 1];
	c->index = cut[f];
	c->burst_rate = lv[h];
	c->sustained_rate = lv[f];
	c->burst_amount = 0;
	/* a mixed sample v = x*hi + (1-x)*lo spent the share x of dt at the burst level */
	for (unsigned i = 0; i <= cut[h + 1] && i < n; i++) {
		double lo = NAN, x = 1;

		if (i + 1 >= cut[h + 1])
			lo = lv[h + 1];
		else if (i < cut[h])
			x = v[i] / lv[h]; /* a slower start: written, not at the burst rate */
		if (!isnan(lo))
			x = lv[h] > lo ? (v[i] - lo) / (lv[h] - lo) : 0;
		x = x < 0 ? 0 : x > 1 ? 1 : x;
		c->burst_amount += x * lv[h] * dt;
	}
	/* before the floor: its first sample's share at the level before it too */
	double up = lv[f - 1], x = up > lv[f] ? (v[c->index] - lv[f]) / (up - lv[f]) : 0;

	c->change_amount = (x < 0 ? 0 : x > 1 ? 1 : x) * up * dt;
	for (unsigned i = 0; i < c->index; i++)
		c->change_amount += v[i] * dt;
	unsigned r = n - c->index < CACHE_RECOVER_N ? n - c->index : CACHE_RECOVER_N;

	c->recovered = mean(v, n - r, n) >= CACHE_RECOVER_SHARE * lv[h];
	for (unsigned j = f + 1; j < ns; j++)
		c->recovered = c->recovered || lv[j] >= CACHE_RECOVER_SHARE * lv[h];
}

void cache_change_sub(const double *sub, unsigned nsub, double subdt, double dt, struct cache_change *c)
{
	struct cache_change s;

	if (!c->found || !sub || nsub < 3 || (double)c->first * dt >= (double)nsub * subdt)
		return;
	cache_change_point(sub, nsub, subdt, &s);
	/* the same change, seen finer: within one coarse sample */
	if (!s.found || fabs((double)s.first * subdt - (double)c->first * dt) > dt + subdt)
		return;
	c->burst_rate = s.burst_rate;
	c->burst_amount = s.burst_amount;
}
