#include "eval/hackingmonitor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rwb::eval {

namespace {

const std::string kComponentPrefix = "rewards/";
const std::string kComponentSuffix = "/mean";
// The length penalty logs beside the components (docs/grpo.md) but is no reward component.
const std::string kOverlong = "overlong";
const std::string kDistinct = "completions/distinct_answers_per_group";
const std::string kTopShare = "completions/top_answer_share";

// The component named by "rewards/<name>/mean", or "" for any other metric.
std::string componentOf(const std::string &metric)
{
    if (metric.size() <= kComponentPrefix.size() + kComponentSuffix.size()
        || metric.compare(0, kComponentPrefix.size(), kComponentPrefix) != 0
        || metric.compare(metric.size() - kComponentSuffix.size(), kComponentSuffix.size(), kComponentSuffix) != 0)
        return {};
    const std::string name =
        metric.substr(kComponentPrefix.size(), metric.size() - kComponentPrefix.size() - kComponentSuffix.size());
    return name == kOverlong ? std::string() : name;
}

std::string fixed2(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string arrow(double a, double b)
{
    return fixed2(a) + " → " + fixed2(b);
}

std::string stepRange(int64_t from, int64_t to)
{
    return from == to ? "step " + std::to_string(from) : "steps " + std::to_string(from) + "–" + std::to_string(to);
}

// The value of the last point at or before `step` (points ordered by step); false if none.
bool lastAtOrBefore(const std::vector<std::pair<int64_t, double>> &points, int64_t step, std::pair<int64_t, double> *out)
{
    auto it = std::upper_bound(points.begin(), points.end(), step,
                               [](int64_t s, const std::pair<int64_t, double> &p) { return s < p.first; });
    if (it == points.begin())
        return false;
    *out = *std::prev(it);
    return true;
}

// "F1" for eval/f1, else the metric without "eval/" ("joint").
std::string validationLabel(const std::string &metric)
{
    if (metric.empty() || metric == "eval/f1")
        return "F1";
    return metric.compare(0, 5, "eval/") == 0 ? metric.substr(5) : metric;
}

// Fills `values` and `message` from the numbers.
void describe(HackingAlert &a)
{
    const std::string range = stepRange(a.from, a.to);
    switch (a.kind) {
    case AlertKind::Hacking: {
        const std::string validation = validationLabel(a.validationMetric);
        a.values = a.components.front() + " " + arrow(a.before, a.after) + " while " + validation + " " +
                   arrow(a.otherBefore, a.otherAfter);
        a.message = "Possible reward hacking: " + a.components.front() + " rose " + arrow(a.before, a.after) +
                    " while validation " + validation + " fell " + arrow(a.otherBefore, a.otherAfter) + " (" + range + ")";
        break;
    }
    case AlertKind::Disagreement:
        a.values = a.components[0] + " " + arrow(a.before, a.after) + " while " + a.components[1] + " "
                   + arrow(a.otherBefore, a.otherAfter);
        a.message = "Possible reward hacking: " + a.components[0] + " rose " + arrow(a.before, a.after) + " while "
                    + a.components[1] + " fell " + arrow(a.otherBefore, a.otherAfter) + " (" + range
                    + "; no validation metrics)";
        break;
    case AlertKind::Collapse: {
        const bool distinct = a.metric == kDistinct;
        const std::string what = distinct ? "distinct answers per group" : "top answer share";
        const std::string value = a.from == a.to ? fixed2(a.after) : arrow(a.before, a.after);
        a.values = what + " " + value + (distinct ? " (≤ " : " (> ") + fixed2(a.threshold) + ")";
        a.message = "Completions collapsing: " + a.values + " (" + range + ")";
        break;
    }
    }
}

} // namespace

const char *alertKindName(AlertKind kind)
{
    switch (kind) {
    case AlertKind::Hacking:
        return "Hacking";
    case AlertKind::Disagreement:
        return "Disagreement";
    case AlertKind::Collapse:
        return "Collapse";
    }
    return "";
}

HackingMonitor::HackingMonitor(HackingSettings settings)
    : m_settings(settings)
{
}

int64_t HackingMonitor::lastStep() const
{
    return m_steps.empty() ? -1 : m_steps.back();
}

void HackingMonitor::reset()
{
    m_components.clear();
    m_f1.clear();
    m_validationName.clear();
    m_distinct.clear();
    m_topShare.clear();
    m_alerts.clear();
    m_steps.clear();
}

void HackingMonitor::setSettings(const HackingSettings &settings)
{
    m_settings = settings;
    m_alerts.clear();
    // judge() reads only points at or before the step it judges, so replaying the steps
    // gives what feeding the run afresh would.
    for (const int64_t step : m_steps)
        judge(step);
}

void HackingMonitor::record(const std::string &name, int64_t step, double value)
{
    Points *points = nullptr;
    if (std::find(m_settings.validationMetrics.begin(), m_settings.validationMetrics.end(), name) !=
        m_settings.validationMetrics.end()) {
        points = &m_f1;
        m_validationName = name;
    }
    else if (name == kDistinct)
        points = &m_distinct;
    else if (name == kTopShare)
        points = &m_topShare;
    else if (const std::string component = componentOf(name); !component.empty())
        points = &m_components[component];
    if (!points)
        return;
    if (points->empty() || points->back().first < step) {
        points->emplace_back(step, value);
        return;
    }
    // A step already there (or an earlier one): replace or insert in order.
    auto it = std::lower_bound(points->begin(), points->end(), step,
                               [](const std::pair<int64_t, double> &p, int64_t s) { return p.first < s; });
    if (it != points->end() && it->first == step)
        it->second = value;
    else
        points->insert(it, {step, value});
}

bool HackingMonitor::update(int64_t step, const std::vector<std::pair<std::string, double>> &metrics)
{
    for (const auto &[name, value] : metrics)
        if (std::isfinite(value))
            record(name, step, value);
    if (!m_steps.empty() && step <= m_steps.back())
        return false;
    m_steps.push_back(step);
    return judge(step);
}

bool HackingMonitor::halfMeans(const Points &points, int64_t from, int64_t to, HalfMeans *out) const
{
    // The series must reach back to the window's start: a run younger than the window is
    // not judged on a part of it.
    if (points.empty() || points.front().first > from)
        return false;
    const int64_t half = (to - from + 1) / 2;
    const int64_t firstEnd = from + half - 1;  // [from, firstEnd]
    const int64_t secondStart = to - half + 1; // [secondStart, to]
    auto it = std::lower_bound(points.begin(), points.end(), from,
                               [](const std::pair<int64_t, double> &p, int64_t s) { return p.first < s; });
    double sumFirst = 0.0, sumSecond = 0.0;
    int nFirst = 0, nSecond = 0;
    for (; it != points.end() && it->first <= to; ++it) {
        if (it->first <= firstEnd) {
            sumFirst += it->second;
            ++nFirst;
        } else if (it->first >= secondStart) {
            sumSecond += it->second;
            ++nSecond;
        }
    }
    if (nFirst == 0 || nSecond == 0)
        return false;
    out->first = sumFirst / nFirst;
    out->second = sumSecond / nSecond;
    return true;
}

bool HackingMonitor::judge(int64_t to)
{
    bool changed = false;
    const int64_t window = std::max(2, m_settings.window);
    const int64_t from = to - window + 1;

    std::vector<std::pair<std::string, HalfMeans>> trends;
    for (const auto &[name, points] : m_components) {
        HalfMeans m;
        if (halfMeans(points, from, to, &m))
            trends.emplace_back(name, m);
    }

    std::pair<int64_t, double> before, after;
    if (lastAtOrBefore(m_f1, to, &after)) {
        // The best evaluation at or before the window's start against the last one inside
        // it: F1 that slid a point per evaluation while a component climbed is a fall from
        // where it was, even when no two neighbouring evaluations differ by the threshold.
        bool judged = false;
        for (const auto &point : m_f1) {
            if (point.first > from)
                break;
            if (!judged || point.second > before.second)
                before = point;
            judged = true;
        }
        judged = judged && after.first > from;
        if (judged && before.second - after.second > m_settings.f1DropThreshold) {
            for (const auto &[name, m] : trends) {
                if (m.rise() <= m_settings.riseThreshold)
                    continue;
                HackingAlert a;
                a.kind = AlertKind::Hacking;
                a.components = {name};
                a.metric = kComponentPrefix + name + kComponentSuffix;
                a.from = from;
                a.to = to;
                a.before = m.first;
                a.after = m.second;
                a.otherBefore = before.second;
                a.otherAfter = after.second;
                a.validationMetric = m_validationName;
                raise(std::move(a), &changed);
            }
        }
    } else if (trends.size() >= 2) {
        const auto byRise = [](const auto &x, const auto &y) { return x.second.rise() < y.second.rise(); };
        const auto &rising = *std::max_element(trends.begin(), trends.end(), byRise);
        const auto &falling = *std::min_element(trends.begin(), trends.end(), byRise);
        if (rising.second.rise() > m_settings.riseThreshold && -falling.second.rise() > m_settings.fallThreshold) {
            HackingAlert a;
            a.kind = AlertKind::Disagreement;
            a.components = {rising.first, falling.first};
            a.metric = kComponentPrefix + rising.first + kComponentSuffix;
            a.from = from;
            a.to = to;
            a.before = rising.second.first;
            a.after = rising.second.second;
            a.otherBefore = falling.second.first;
            a.otherAfter = falling.second.second;
            raise(std::move(a), &changed);
        }
    }

    const auto collapse = [&](const Points &points, const std::string &metric, double threshold, bool below) {
        std::pair<int64_t, double> p;
        if (!lastAtOrBefore(points, to, &p) || p.first != to)
            return;
        if (below ? p.second > threshold : p.second <= threshold)
            return;
        HackingAlert a;
        a.kind = AlertKind::Collapse;
        a.metric = metric;
        a.from = to;
        a.to = to;
        a.before = p.second;
        a.after = p.second;
        a.otherBefore = a.otherAfter = std::numeric_limits<double>::quiet_NaN();
        a.threshold = threshold;
        raise(std::move(a), &changed);
    };
    collapse(m_distinct, kDistinct, m_settings.minDistinctAnswers, /*below=*/true);
    collapse(m_topShare, kTopShare, m_settings.maxTopAnswerShare, /*below=*/false);
    return changed;
}

const HackingAlert *HackingMonitor::headline() const
{
    const HackingAlert *best = nullptr;
    int64_t latest = std::numeric_limits<int64_t>::min();
    for (const HackingAlert &a : m_alerts)
        latest = std::max(latest, a.to);
    for (const HackingAlert &a : m_alerts) {
        if (a.to != latest)
            continue;
        if (!best || static_cast<int>(a.kind) < static_cast<int>(best->kind) ||
            (a.kind == best->kind && std::abs(a.after - a.before) > std::abs(best->after - best->before)))
            best = &a;
    }
    return best;
}

void HackingMonitor::raise(HackingAlert alert, bool *changed)
{
    *changed = true;
    for (auto it = m_alerts.rbegin(); it != m_alerts.rend(); ++it) {
        if (it->kind != alert.kind || it->components != alert.components || it->metric != alert.metric)
            continue;
        // The latest alert of the same condition: extended when the ranges overlap or touch.
        if (alert.from <= it->to + 1) {
            it->to = std::max(it->to, alert.to);
            it->after = alert.after;
            it->otherAfter = alert.otherAfter;
            describe(*it);
            return;
        }
        break;
    }
    describe(alert);
    m_alerts.push_back(std::move(alert));
}

std::vector<HackingAlert> HackingMonitor::scan(const MetricSeries &series, const HackingSettings &settings)
{
    std::map<int64_t, std::vector<std::pair<std::string, double>>> bySteps;
    for (const auto &[name, points] : series)
        for (const auto &[step, value] : points)
            bySteps[step].emplace_back(name, value);
    HackingMonitor monitor(settings);
    for (const auto &[step, metrics] : bySteps)
        monitor.update(step, metrics);
    return monitor.alerts();
}

} // namespace rwb::eval
