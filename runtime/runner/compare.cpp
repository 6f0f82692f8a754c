//===- compare.cpp - a run's results against the serial meaning -----------===//
#include "runtime/runner/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <vector>

namespace pir::runtime::runner {

namespace {

double elementAt(const Tensor& t, int64_t i) {
  return visitDtype(t.dtype(), [&](auto* tag) -> double {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<T, BFloat16>)
      return t.data<T>()[i].toFloat();
    else
      return double(t.data<T>()[i]);
  });
}

std::vector<double> flat(const Tensor& t) {
  std::vector<double> out(size_t(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[size_t(i)] = elementAt(t, i);
  return out;
}

std::string g9(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string g3(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// What is compared: where a step ended, or what it changed.
enum class Kind { Value, Gradient, Update };

/// The tolerance's terms for a dtype (all 0: exact).
struct Terms {
  double abs = 0, rel = 0, ofMax = 0, ulp = 0;
};

Terms termsFor(core::DataType dt, Kind kind) {
  bool f64 = dt == core::DataType::F64, bf16 = dt == core::DataType::BF16;
  if (!f64 && !bf16 && dt != core::DataType::F32) return {};
  Terms t;
  t.rel = f64 ? 1e-10 : 1e-5;
  if (kind == Kind::Value) {
    t.abs = f64 ? 1e-12 : 1e-6;
    return t;
  }
  // A gradient is a sum with cancellation: a sharded and the whole sum
  // round apart by up to ~1.2e-5 of the tensor's largest |b| (gen-program's
  // deep layers, --steps 3), so 1e-4 of it; twice a gradient is 1e4 of that.
  t.ofMax = f64 ? 1e-11 : 1e-4;
  if (kind == Kind::Update) {
    // adam's step divides each gradient element by its own size, so a small
    // element's rounding (within the gradient's 1e-4 of the largest) shows
    // in the update: 3e-3 of the update's largest (measured up to 1.2e-3,
    // gen-program --optimizer adamw --loss sum under mpirun). The
    // spacing of floats near |x| is at most eps|x|, and an update's two
    // rounded ends differ by up to an ulp each way.
    t.ofMax = f64 ? 1e-10 : 3e-3;
    t.ulp = 2 * (f64 ? 0x1p-52 : bf16 ? 0x1p-7 : 0x1p-23);
  }
  t.abs = f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  return t;
}

/// An element's difference over its tolerance: 0 when equal (inf equals inf
/// of its sign, NaN equals NaN), inf for a non-number against another.
double ratioOf(double x, double y, double tol) {
  if (x == y || (std::isnan(x) && std::isnan(y))) return 0;
  if (!std::isfinite(x) || !std::isfinite(y) || tol <= 0) return std::numeric_limits<double>::infinity();
  return std::fabs(x - y) / tol;
}

/// The worst element of `x` against `y`, and how many are beyond the
/// tolerance.
struct Found {
  int64_t index = -1;
  double ratio = 0;
  int64_t beyond = 0;
};

/// Each element's tolerance for `y`: the terms, `ref`'s rounding, `extra`.
std::vector<double> tolerances(const std::vector<double>& y, const std::vector<double>* ref,
                               const std::vector<double>* extra, const Terms& t) {
  double most = 0;
  for (double v : y)
    if (std::isfinite(v)) most = std::max(most, std::fabs(v));
  std::vector<double> tol(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    tol[i] = t.abs + t.rel * std::fabs(y[i]) + t.ofMax * most;
    if (ref && std::isfinite((*ref)[i])) tol[i] += t.ulp * (*ref)[i];
    if (extra && i < extra->size() && std::isfinite((*extra)[i])) tol[i] += (*extra)[i];
  }
  return tol;
}

Found compareFlat(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& tols) {
  Found f;
  for (size_t i = 0; i < x.size(); ++i) {
    double tol = tols[i];
    double r = ratioOf(x[i], y[i], tol);
    if (r > 1) ++f.beyond;
    if (f.index < 0 || r > f.ratio) f.index = int64_t(i), f.ratio = r;
  }
  return f;
}

bool sameType(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end());
}

/// Walks the comparisons in order, keeping the worst element, and stops at
/// the first problem.
struct Walker {
  CompareReport r;

  bool done() const { return !r.match; }
  void fail(std::string m) {
    r.match = false;
    r.mismatch = std::move(m);
  }
  /// `label` names the tensor (`'w' gradient at step 2`); `got`/`want`
  /// checked for presence and type by the caller.
  void compare(const std::string& label, const std::vector<double>& x, const std::vector<double>& y,
               const std::vector<double>& tols) {
    Found f = compareFlat(x, y, tols);
    if (f.index < 0) return;
    std::string at = " at flat index " + std::to_string(f.index);
    if (f.ratio > 1) {
      std::string times = std::isinf(f.ratio) ? "" : g3(f.ratio) + " times the tolerance; ";
      fail(label + " differs" + at + ": " + g9(x[size_t(f.index)]) + ", serially " + g9(y[size_t(f.index)]) + " (" +
           times + std::to_string(f.beyond) + " of " + std::to_string(x.size()) + " elements beyond it)");
      return;
    }
    if (r.worst.what.empty() || f.ratio > r.worst.ratio)
      r.worst = {label + ", flat index " + std::to_string(f.index), x[size_t(f.index)], y[size_t(f.index)], f.ratio};
  }
  /// Presence and type; false (with the problem reported) when not alike.
  bool alike(const std::string& label, const Tensor* a, const Tensor& b) {
    if (!a) {
      fail(label + " is missing from the run");
      return false;
    }
    if (!sameType(*a, b)) {
      fail(label + " is " + a->typeText() + ", serially " + b.typeText());
      return false;
    }
    return true;
  }
};

std::vector<std::string> sortedNames(const TensorMap& m) {
  std::vector<std::string> names;
  for (auto& [k, v] : m) names.push_back(k);
  std::sort(names.begin(), names.end());
  return names;
}

const Tensor* find(const TensorMap& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? nullptr : &it->second;
}

/// Per state name, the sum of its updates' tolerances over the steps: where
/// a parameter ended may be off by what every step's update was allowed.
using Allowance = std::map<std::string, std::vector<double>>;

void compareFinal(Walker& w, const TensorMap& got, const TensorMap& want, const Allowance& allowed) {
  for (const std::string& n : sortedNames(want)) {
    const Tensor& b = want.at(n);
    const Tensor* a = find(got, n);
    std::string label = "'" + n + "'";
    if (!w.alike(label, a, b)) return;
    auto extra = allowed.find(n);
    std::vector<double> y = flat(b);
    w.compare(
        label, flat(*a), y,
        tolerances(y, nullptr, extra == allowed.end() ? nullptr : &extra->second, termsFor(b.dtype(), Kind::Value)));
    if (w.done()) return;
  }
  w.r.compared = want.size();
}

/// A parameter's update where its gradient is within the gradient's own
/// tolerance of zero: the check cannot tell that gradient element's sign,
/// and an optimizer that divides by the element's size (adam: its step
/// g / (|g| + eps) has slope ~lr/eps near 0, 2e4 at |g| = 1e-6 with eps 1e-6)
/// turns its rounding into any update up to the step's size. Such an element
/// may differ by twice the update's largest |b|, so a wild update still fails;
/// its gradient is checked as every other.
void allowUndecidedSigns(const std::vector<double>& grad, const Terms& gradTerms, const std::vector<double>& update,
                         std::vector<double>& tols) {
  std::vector<double> gradTols = tolerances(grad, nullptr, nullptr, gradTerms);
  double most = 0;
  for (double u : update)
    if (std::isfinite(u)) most = std::max(most, std::fabs(u));
  for (size_t i = 0; i < grad.size() && i < tols.size(); ++i)
    if (std::fabs(grad[i]) <= gradTols[i]) tols[i] = std::max(tols[i], 2 * most);
}

/// What step `s` changed of state `n` (after - before, in f64), and |after|.
bool updateOf(const RunValues& v, size_t s, const std::string& n, std::vector<double>& u, std::vector<double>& after) {
  const Tensor* before = find(v.steps[s].before, n);
  const Tensor* end = s + 1 < v.steps.size() ? find(v.steps[s + 1].before, n) : find(v.final, n);
  if (!before || !end || !sameType(*before, *end)) return false;
  after = flat(*end);
  u = flat(*before);
  for (size_t i = 0; i < u.size(); ++i) {
    u[i] = after[i] - u[i];
    after[i] = std::fabs(after[i]);
  }
  return true;
}

void compareStep(Walker& w, const RunValues& got, const RunValues& want, size_t s, Allowance& allowed) {
  std::string at = " at step " + std::to_string(s + 1);
  const StepValues& g = got.steps[s];
  const StepValues& v = want.steps[s];
  for (const std::string& n : sortedNames(v.gradients)) {
    const Tensor& b = v.gradients.at(n);
    const Tensor* a = find(g.gradients, n);
    std::string label = "'" + n + "' gradient" + at;
    if (!w.alike(label, a, b)) return;
    std::vector<double> y = flat(b);
    w.compare(label, flat(*a), y, tolerances(y, nullptr, nullptr, termsFor(b.dtype(), Kind::Gradient)));
    if (w.done()) return;
  }
  for (const std::string& n : sortedNames(v.before)) {
    const Tensor& b = v.before.at(n);
    std::string label = "'" + n + "' update" + at;
    if (!w.alike(label, find(g.before, n), b)) return;
    std::vector<double> ua, ub, afterA, afterB;
    if (!updateOf(want, s, n, ub, afterB)) continue;  // not state at the end: no update to speak of
    if (!updateOf(got, s, n, ua, afterA)) {
      w.fail(label + ": the run has no value of it after the step");
      return;
    }
    std::vector<double> tols = tolerances(ub, &afterB, nullptr, termsFor(b.dtype(), Kind::Update));
    if (auto grad = v.gradients.find(n); grad != v.gradients.end() && grad->second.numel() == b.numel())
      allowUndecidedSigns(flat(grad->second), termsFor(grad->second.dtype(), Kind::Gradient), ub, tols);
    w.compare(label, ua, ub, tols);
    if (w.done()) return;
    std::vector<double>& sum = allowed[n];
    sum.resize(tols.size(), 0);
    for (size_t i = 0; i < tols.size(); ++i) sum[i] += tols[i];
  }
}

}  // namespace

bool withinTolerance(const Tensor& a, const Tensor& b) {
  std::vector<double> y = flat(b);
  return compareFlat(flat(a), y, tolerances(y, nullptr, nullptr, termsFor(b.dtype(), Kind::Value))).beyond == 0;
}

CompareReport compareRun(const RunValues& got, const RunValues& want) {
  Walker w;
  Allowance allowed;
  size_t steps = std::min(got.steps.size(), want.steps.size());
  for (size_t s = 0; s < steps && !w.done(); ++s) compareStep(w, got, want, s, allowed);
  if (w.done()) return w.r;
  if (steps > 0) {
    w.r.steps = steps;
    w.r.gradients = want.steps[0].gradients.size();
    w.r.updates = want.steps[0].before.size();
  }
  compareFinal(w, got.final, want.final, allowed);
  return w.r;
}

CompareReport compareResults(const TensorMap& got, const TensorMap& want) {
  Walker w;
  compareFinal(w, got, want, {});
  return w.r;
}

CompareReport compareBitwise(const TensorMap& got, const TensorMap& want) {
  CompareReport r;
  r.bitwise = true;
  for (const std::string& n : sortedNames(want)) {
    const Tensor& b = want.at(n);
    const Tensor* a = find(got, n);
    r.match = false;
    if (!a) {
      r.mismatch = "'" + n + "' is missing from the run";
      return r;
    }
    if (!sameType(*a, b)) {
      r.mismatch = "'" + n + "' is " + a->typeText() + ", serially " + b.typeText();
      return r;
    }
    size_t elem = elementSize(a->dtype());
    const char* x = static_cast<const char*>(a->raw());
    const char* y = static_cast<const char*>(b.raw());
    for (int64_t i = 0; i < a->numel(); ++i)
      if (std::memcmp(x + size_t(i) * elem, y + size_t(i) * elem, elem) != 0) {
        r.mismatch = "'" + n + "' differs at flat index " + std::to_string(i) + ": " + g9(elementAt(*a, i)) +
                     ", in the second run " + g9(elementAt(b, i));
        return r;
      }
    r.match = true;
  }
  r.compared = want.size();
  return r;
}

}  // namespace pir::runtime::runner
