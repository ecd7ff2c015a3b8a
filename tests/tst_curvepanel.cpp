// widgets/CurvePanel and curveseries.h: the debiased EMA, loading a run from a real store
// (points, the ± std band, weight-change markers), live points with zoom / follow, the
// shared step cursor, overlays, the metric picker and legends below the plots, CSV and
// PNG export, and redraw coalescing. Expected values
// are worked out by hand in the comments; tolerance 1e-12 unless stated.
#include "curvepanel.h"
#include "runsessions.h"
#include "curveseries.h"
#include "metriclistmodel.h"
#include "store/runstore.h"

#include <QFile>
#include <QAbstractItemModelTester>
#include <QImage>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>
#include <cmath>
#include <limits>
#include "curveqcp.h"

using namespace rwb;
using rwb::widgets::CurvePanel;
using rwb::widgets::TrainingStep;

namespace {

constexpr double kTol = 1e-12;

const char *const kConfig20_80 =
    R"({"components":[{"reward":"partial","weight":20},{"reward":"marker","weight":80}]})";
const char *const kConfig50_50 =
    R"({"components":[{"reward":"partial","weight":50},{"reward":"marker","weight":50}]})";

// Run "alpha", steps 1…5: reward 0.1·s, reward_std 0.05, rewards/partial/mean 0.2·s,
// rewards/marker/mean 1 − 0.1·s, entropy 2 − 0.1·s, eval/f1 at steps 0 (0.25) and 5 (0.75);
// reward configs at step 1 (20/80, the initial one) and step 3 (50/50).
int64_t writeAlpha(store::RunStore &w)
{
    const int64_t run = w.beginRun("alpha", store::RunKind::Grpo, "{}", "company_extraction");
    w.recordRewardConfig(run, 1, kConfig20_80);
    w.writeStep(run, 0, {{"eval/f1", 0.25}}, {});
    for (int s = 1; s <= 5; ++s) {
        std::vector<store::Metric> m = {{"reward", 0.1 * s},
                                        {"reward_std", 0.05},
                                        {"rewards/partial/mean", 0.2 * s},
                                        {"rewards/marker/mean", 1 - 0.1 * s},
                                        {"entropy", 2 - 0.1 * s}};
        if (s == 5)
            m.push_back({"eval/f1", 0.75});
        w.writeStep(run, s, m, {});
    }
    w.recordRewardConfig(run, 3, kConfig50_50);
    return run;
}

TrainingStep liveStep(qint64 run, qint64 step, double reward)
{
    TrainingStep t;
    t.runId = run;
    t.step = step;
    t.metrics = {{"reward", reward}, {"reward_std", 0.05}, {"entropy", 1.0}};
    return t;
}

// Run "hacked", steps 0…20: exist 0.40 (steps 1–10) → 0.60 (11–20), partial flat 0.50,
// eval/f1 0.22 at steps 0 and 10, 0.17 at step 20. At step 20 the alert's window [1, 20]
// has exist's halves 0.40 / 0.60 (rise 0.20 > 0.05) while F1 falls from 0.22 (step 0, the
// last at or before step 1) to 0.17 (step 20): 0.05 > 0.02 (see tst_hackingmonitor).
int64_t writeHacked(store::RunStore &w)
{
    const int64_t run = w.beginRun("hacked", store::RunKind::Grpo, "{}", "company_extraction");
    w.writeStep(run, 0, {{"eval/f1", 0.22}}, {});
    for (int s = 1; s <= 20; ++s) {
        std::vector<store::Metric> m = {{"reward", 0.5}, {"rewards/exist/mean", s <= 10 ? 0.40 : 0.60},
                                        {"rewards/partial/mean", 0.50}};
        if (s == 10)
            m.push_back({"eval/f1", 0.22});
        if (s == 20)
            m.push_back({"eval/f1", 0.17});
        w.writeStep(run, s, m, {});
    }
    return run;
}

// The shaded alert ranges of a plot, as [left, right] in steps.
QList<QPair<double, double>> alertRanges(QCustomPlot *p)
{
    QList<QPair<double, double>> ranges;
    for (int k = 0; k < p->itemCount(); ++k)
        if (auto *rect = qobject_cast<QCPItemRect *>(p->item(k)))
            ranges << qMakePair(rect->topLeft->coords().x(), rect->bottomRight->coords().x());
    return ranges;
}

// The dashed weight-change lines of a plot, by step.
QList<double> markerSteps(QCustomPlot *p)
{
    QList<double> steps;
    for (int k = 0; k < p->itemCount(); ++k)
        if (auto *line = qobject_cast<QCPItemStraightLine *>(p->item(k)); line && line->pen().style() == Qt::DashLine)
            steps << line->point1->coords().x();
    return steps;
}

// The step cursor of a plot: its one solid vertical line.
QCPItemStraightLine *cursorOf(QCustomPlot *p)
{
    for (int k = 0; k < p->itemCount(); ++k)
        if (auto *line = qobject_cast<QCPItemStraightLine *>(p->item(k)); line && line->pen().style() == Qt::SolidLine)
            return line;
    return nullptr;
}

QStringList legendNames(QCustomPlot *p)
{
    QStringList names;
    for (int k = 0; k < p->legend->itemCount(); ++k)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(p->legend->item(k)))
            names << item->plottable()->name();
    return names;
}

// Waits for the panel's pending redraw tick (every plot replots on it). QCustomPlot also
// replots by itself (once after construction, on resizes), so afterReplot alone does not
// tell that the panel's tick has passed.
bool waitForRedraw(CurvePanel &panel)
{
    if (!panel.redrawPending())
        return false;
    QSignalSpy spy(panel.plot(0), &QCustomPlot::afterReplot);
    for (int k = 0; k < 100 && panel.redrawPending(); ++k)
        spy.wait(50);
    return !panel.redrawPending() && spy.count() > 0;
}

} // namespace

class TestCurvePanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void curveSeriesOrder();
    void showRunFromStore();
    void showRunErrors();
    void liveStepsAndZoom();
    void liveRunWithoutStore();
    void runLabelsFollowTheLanguage();
    void sharedCursor();
    void overlays();
    void metricPicker();
    void exportCsv();
    void exportPng();
    void redrawsCoalesce();
    void hackingAlertBanner();
    void noAlertNoBanner();
};

void TestCurvePanel::curveSeriesOrder()
{
    // The smoothing itself (eval::emaSmooth) is tested in tst_smoothing.
    // CurveSeries keeps one point a step, in step order.
    widgets::CurveSeries series;
    series.set(3, 0.3);
    series.set(1, 0.1);
    series.set(3, 0.33);
    series.set(2, 0.2);
    QCOMPARE(series.steps(), (std::vector<int64_t>{1, 2, 3}));
    QCOMPARE(series.values(), (std::vector<double>{0.1, 0.2, 0.33}));
    QVERIFY(std::isnan(series.valueAt(4)));
}

void TestCurvePanel::showRunFromStore()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    panel.setSmoothing(0.0);
    QCOMPARE(panel.plotCount(), 8);
    QString error;
    QVERIFY2(rwbtest::showRun(panel, path, run, &error), qPrintable(error));

    // Reward: band low, band high, raw, smoothed; 5 points each.
    QCustomPlot *reward = panel.plot(CurvePanel::RewardPlot);
    QCOMPARE(reward->graphCount(), 4);
    for (int g = 0; g < 4; ++g)
        QCOMPARE(reward->graph(g)->dataCount(), 5);
    for (int s = 1; s <= 5; ++s) {
        const int k = s - 1;
        QCOMPARE(reward->graph(2)->dataMainKey(k), double(s));
        QVERIFY(std::abs(reward->graph(2)->dataMainValue(k) - 0.1 * s) < kTol);
        QVERIFY(std::abs(reward->graph(3)->dataMainValue(k) - 0.1 * s) < kTol); // smoothing 0
        QVERIFY(std::abs(reward->graph(0)->dataMainValue(k) - (0.1 * s - 0.05)) < kTol);
        QVERIFY(std::abs(reward->graph(1)->dataMainValue(k) - (0.1 * s + 0.05)) < kTol);
    }
    // Smoothing 0.5 on reward [0.1, 0.2, …]: step 2 = (0.5·0.5·0.1 + 0.5·0.2) / 0.75 = 1/6.
    panel.setSmoothing(0.5);
    QCOMPARE(panel.smoothing(), 0.5);
    QVERIFY(std::abs(reward->graph(3)->dataMainValue(0) - 0.1) < kTol);
    QVERIFY(std::abs(reward->graph(3)->dataMainValue(1) - 1.0 / 6.0) < kTol);
    QVERIFY(std::abs(reward->graph(2)->dataMainValue(1) - 0.2) < kTol); // raw kept

    // Components: marker then partial (by name), raw + smoothed each, legend by component.
    QCustomPlot *comp = panel.plot(CurvePanel::ComponentsPlot);
    QCOMPARE(comp->graphCount(), 4);
    QCOMPARE(legendNames(comp), (QStringList{"marker", "partial"}));
    QVERIFY(std::abs(comp->graph(0)->dataMainValue(3) - 0.6) < kTol); // marker at step 4
    QVERIFY(std::abs(comp->graph(2)->dataMainValue(3) - 0.8) < kTol); // partial at step 4
    // KL was never logged; entropy 1.9 … 1.5; F1 at steps 0 and 5.
    QCOMPARE(panel.plot(CurvePanel::KlPlot)->graphCount(), 0);
    QCOMPARE(panel.plot(CurvePanel::EntropyPlot)->graph(0)->dataCount(), 5);
    QCustomPlot *f1 = panel.plot(CurvePanel::F1Plot);
    QCOMPARE(f1->graph(0)->dataCount(), 2);
    QCOMPARE(f1->graph(0)->dataMainKey(0), 0.0);
    QCOMPARE(f1->graph(0)->dataMainValue(1), 0.75);
    // F1 is not smoothed (at 0.5 step 5 would read (0.25·0.25 + 0.5·0.75) / 0.75 = 0.5833).
    QCOMPARE(f1->graph(1)->dataMainValue(1), 0.75);

    // The step-3 config version is a weight change on every plot; the initial one is not.
    for (int i = 0; i < panel.plotCount(); ++i)
        QCOMPARE(markerSteps(panel.plot(i)), QList<double>{3.0});
    QStringList texts;
    for (int k = 0; k < reward->itemCount(); ++k)
        if (auto *t = qobject_cast<QCPItemText *>(reward->item(k)); t && t->visible())
            texts << t->text();
    QVERIFY2(texts.contains("partial 50 · marker 50"), qPrintable(texts.join('|')));
}

void TestCurvePanel::showRunErrors()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, run));
    QString error;
    QVERIFY(!rwbtest::showRun(panel, dir.path() + "/missing.sqlite", 1, &error));
    QVERIFY2(error.contains("missing.sqlite"), qPrintable(error));
    QVERIFY(!rwbtest::showRun(panel, path, 99, &error));
    QVERIFY2(error.contains("runs.sqlite") && error.contains("99"), qPrintable(error));
    QVERIFY(!rwbtest::addOverlay(panel, path, 42, &error));
    QVERIFY2(error.contains("42"), qPrintable(error));
    // A file that is no run store.
    const QString junk = dir.path() + "/junk.sqlite";
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database at all, just text that goes on for a while to fill a page");
    }
    QVERIFY(!rwbtest::showRun(panel, junk, 1, &error));
    QVERIFY2(error.contains("junk.sqlite"), qPrintable(error));
    // The run shown before is still there.
    QCOMPARE(panel.plot(CurvePanel::RewardPlot)->graph(2)->dataCount(), 5);
    QCOMPARE(panel.overlayCount(), 0);
}

void TestCurvePanel::liveStepsAndZoom()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, run));
    QVERIFY(waitForRedraw(panel));
    QCustomPlot *reward = panel.plot(CurvePanel::RewardPlot);
    QCustomPlot *entropy = panel.plot(CurvePanel::EntropyPlot);
    QVERIFY(panel.isFollowing(CurvePanel::RewardPlot));
    // Follow mode fits steps 1…5 (2 % margin each side).
    QVERIFY(reward->xAxis->range().lower <= 1.0 && reward->xAxis->range().upper >= 5.0);

    // The user zooms the Reward plot: it stops following; the others still follow.
    reward->xAxis->setRange(2, 4);
    reward->yAxis->setRange(0.1, 0.3);
    QVERIFY(!panel.isFollowing(CurvePanel::RewardPlot));
    QVERIFY(panel.isFollowing(CurvePanel::EntropyPlot));

    // A live step 6 (and the store's step 5 again, as a store read racing the live feed
    // delivers it: replaced, not duplicated).
    panel.appendStep(liveStep(run, 5, 0.5));
    panel.appendStep(liveStep(run, 6, 0.6));
    QVERIFY(waitForRedraw(panel));
    QCOMPARE(reward->graph(2)->dataCount(), 6);
    QCOMPARE(reward->graph(2)->dataMainValue(5), 0.6);
    QCOMPARE(reward->xAxis->range().lower, 2.0);
    QCOMPARE(reward->xAxis->range().upper, 4.0);
    QCOMPARE(reward->yAxis->range().lower, 0.1);
    QCOMPARE(reward->yAxis->range().upper, 0.3);
    QVERIFY(entropy->xAxis->range().upper >= 6.0);

    // Fit: back to following; the view now holds step 6.
    panel.fit();
    QVERIFY(panel.isFollowing(CurvePanel::RewardPlot));
    QVERIFY(waitForRedraw(panel));
    QVERIFY(reward->xAxis->range().upper >= 6.0);
    QVERIFY(reward->xAxis->range().lower <= 1.0);
    // Mean + std at step 6 is 0.65: inside the fitted value range.
    QVERIFY(reward->yAxis->range().upper >= 0.65);

    // A live weight change marks its step.
    panel.markWeightChange(6, {30, 70});
    QVERIFY(waitForRedraw(panel));
    QCOMPARE(markerSteps(entropy), (QList<double>{3.0, 6.0}));

    // Double-clicking a zoomed plot makes it follow again.
    panel.resize(900, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    entropy->xAxis->setRange(1, 2);
    QVERIFY(!panel.isFollowing(CurvePanel::EntropyPlot));
    QTest::mouseDClick(entropy, Qt::LeftButton, {}, entropy->axisRect()->center());
    QVERIFY(panel.isFollowing(CurvePanel::EntropyPlot));

    // The real gestures end follow mode too: the mouse wheel (zoom) …
    QVERIFY(waitForRedraw(panel) || !panel.redrawPending());
    const QPoint c = entropy->axisRect()->center();
    const QCPRange before = entropy->xAxis->range();
    QWheelEvent wheel(QPointF(c), entropy->mapToGlobal(QPointF(c)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(entropy, &wheel);
    QVERIFY(!panel.isFollowing(CurvePanel::EntropyPlot));
    QVERIFY(entropy->xAxis->range().size() < before.size()); // zoomed in
    // … and dragging (pan) on another plot.
    QCustomPlot *length = panel.plot(CurvePanel::ClipPlot);
    QVERIFY(panel.isFollowing(CurvePanel::ClipPlot));
    const QPoint from = length->axisRect()->center();
    QTest::mousePress(length, Qt::LeftButton, {}, from);
    QTest::mouseMove(length, from + QPoint(40, 0));
    QTest::mouseRelease(length, Qt::LeftButton, {}, from + QPoint(40, 0));
    QVERIFY(!panel.isFollowing(CurvePanel::ClipPlot));
    panel.appendStep(liveStep(run, 7, 0.7));
    QVERIFY(waitForRedraw(panel));
    QVERIFY(entropy->xAxis->range().upper < 7.0); // not yanked back to the new point
}

void TestCurvePanel::liveRunWithoutStore()
{
    CurvePanel panel;
    panel.setSmoothing(0.0);
    panel.appendStep(liveStep(7, 1, 0.25));
    panel.appendStep(liveStep(7, 2, 0.5));
    panel.appendStep(liveStep(8, 3, 0.75)); // another run: ignored
    panel.markWeightChange(2, {1, 2});      // no component names known: weights only
    QVERIFY(waitForRedraw(panel));
    QCustomPlot *reward = panel.plot(CurvePanel::RewardPlot);
    QCOMPARE(reward->graphCount(), 4);
    QCOMPARE(reward->graph(2)->dataCount(), 2);
    QCOMPARE(reward->graph(2)->dataMainValue(1), 0.5);
    QCOMPARE(reward->graph(1)->dataMainValue(1), 0.55); // 0.5 + 0.05
    QCOMPARE(markerSteps(reward), QList<double>{2.0});
    bool labelled = false;
    for (int k = 0; k < reward->itemCount(); ++k)
        if (auto *t = qobject_cast<QCPItemText *>(reward->item(k)))
            labelled = labelled || t->text() == "weights 1 / 2";
    QVERIFY(labelled);
    panel.clear();
    QCOMPARE(reward->graphCount(), 0);
    QCOMPARE(markerSteps(reward), QList<double>{});
}

// Settings ▸ Language at run time: the legends' run names follow ("run #7" of a live run
// known by its id, "<name> #<id>" of an overlay), and go back.
void TestCurvePanel::runLabelsFollowTheLanguage()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    panel.appendStep(liveStep(7, 1, 0.25));
    QVERIFY(rwbtest::addOverlay(panel, path, run));
    QVERIFY(waitForRedraw(panel) || !panel.redrawPending());
    QCustomPlot *reward = panel.plot(CurvePanel::RewardPlot);
    const QStringList english{"run #7", QStringLiteral("alpha #%1").arg(run)};
    QCOMPARE(legendNames(reward), english);
    QTranslator ja;
    QVERIFY(ja.load(":/i18n/reward-workbench_ja.qm"));
    QCoreApplication::installTranslator(&ja);
    QCoreApplication::processEvents(); // the posted LanguageChange
    QCOMPARE(legendNames(reward), (QStringList{QString::fromUtf8("実行 #7"), QStringLiteral("alpha #%1").arg(run)}));
    QCoreApplication::removeTranslator(&ja);
    QCoreApplication::processEvents();
    QCOMPARE(legendNames(reward), english);
}

void TestCurvePanel::sharedCursor()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, run));
    QSignalSpy spy(&panel, &CurvePanel::stepCursorChanged);
    QCOMPARE(panel.stepCursor(), qint64(-1));
    for (int i = 0; i < panel.plotCount(); ++i)
        QVERIFY(!cursorOf(panel.plot(i))->visible());
    panel.setStepCursor(5);
    QCOMPARE(panel.stepCursor(), qint64(5));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toLongLong(), qint64(5));
    for (int i = 0; i < panel.plotCount(); ++i) {
        QCPItemStraightLine *c = cursorOf(panel.plot(i));
        QVERIFY(c->visible());
        QCOMPARE(c->point1->coords().x(), 5.0);
        QCOMPARE(c->point2->coords().x(), 5.0);
    }
    panel.setStepCursor(5); // unchanged: no signal
    QCOMPARE(spy.count(), 1);

    // A click on the Entropy plot at x = 7 (range set to 0…10 by hand).
    panel.resize(900, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCustomPlot *p = panel.plot(CurvePanel::EntropyPlot);
    p->xAxis->setRange(0, 10);
    p->replot();
    const QPoint at(qRound(p->xAxis->coordToPixel(7.0)), p->axisRect()->center().y());
    QTest::mouseClick(p, Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toLongLong(), qint64(7));
    QCOMPARE(panel.stepCursor(), qint64(7));
    QCOMPARE(cursorOf(panel.plot(CurvePanel::RewardPlot))->point1->coords().x(), 7.0);
    // A click on the axis labels, outside the axis rect, sets nothing.
    QTest::mouseClick(p, Qt::LeftButton, {}, QPoint(2, p->height() - 2));
    QCOMPARE(spy.count(), 2);
}

void TestCurvePanel::overlays()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t a = 0, b = 0;
    {
        store::RunStore w(path.toStdString());
        a = writeAlpha(w);
        b = w.beginRun("beta", store::RunKind::Grpo, "{}", "company_extraction");
        w.recordRewardConfig(b, 1, kConfig20_80);
        for (int s = 1; s <= 3; ++s)
            w.writeStep(b, s, {{"reward", 0.3}, {"rewards/partial/mean", 0.4}, {"rewards/marker/mean", 0.5}}, {});
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, a));
    QString error;
    QVERIFY2(rwbtest::addOverlay(panel, path, b, &error), qPrintable(error));
    QCOMPARE(panel.overlayCount(), 1);
    QVERIFY(rwbtest::addOverlay(panel, path, b)); // already shown: not twice
    QCOMPARE(panel.overlayCount(), 1);
    QCustomPlot *reward = panel.plot(CurvePanel::RewardPlot);
    QVERIFY(reward->legend->visible());
    QCOMPARE(legendNames(reward), (QStringList{"alpha #1", "beta #2"}));
    // Two sets of graphs: alpha's 4 (band, raw, smoothed) and beta's 4 (an empty band: no reward_std).
    QCOMPARE(reward->graphCount(), 8);
    QCOMPARE(reward->graph(6)->dataCount(), 3);
    QCOMPARE(reward->graph(4)->dataCount(), 0);
    QVERIFY(reward->graph(3)->pen().color() != reward->graph(7)->pen().color());
    QCOMPARE(legendNames(panel.plot(CurvePanel::ComponentsPlot)),
             (QStringList{"alpha #1 · marker", "alpha #1 · partial", "beta #2 · marker", "beta #2 · partial"}));
    // Only alpha has entropy: one run, no legend needed.
    QVERIFY(!panel.plot(CurvePanel::EntropyPlot)->legend->visible());

    // A new primary keeps the overlay; clearOverlays drops it.
    QVERIFY(rwbtest::showRun(panel, path, a));
    QCOMPARE(panel.overlayCount(), 1);
    panel.clearOverlays();
    QCOMPARE(panel.overlayCount(), 0);
    QCOMPARE(reward->graphCount(), 4);
    QVERIFY(!reward->legend->visible());
}

// The metric picker lists every metric the store has for the runs shown (the eight plots
// show only some), filters them, and a checked one gets a plot of its own; the legends
// sit below their plot, outside its axis rect.
void TestCurvePanel::metricPicker()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t a = 0, b = 0;
    {
        store::RunStore w(path.toStdString());
        a = w.beginRun("alpha", store::RunKind::Grpo, "{}", "company_extraction");
        // policy_loss 0.5 − 0.1·s, grad_norm 2·s, reward 0.1·s, steps 1…3.
        for (int s = 1; s <= 3; ++s)
            w.writeStep(a, s,
                        {{"reward", 0.1 * s}, {"policy_loss", 0.5 - 0.1 * s}, {"grad_norm", 2.0 * s},
                         {"reward_metric/py/len", 10.0 + s}},
                        {});
        b = w.beginRun("beta", store::RunKind::Grpo, "{}", "company_extraction");
        for (int s = 1; s <= 2; ++s)
            w.writeStep(b, s, {{"reward", 0.2}, {"policy_loss", 0.4}}, {});
    }
    CurvePanel panel;
    rwb::widgets::MetricListModel *model = panel.metricModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(panel, path, a));
    QCOMPARE(model->metrics(), (QStringList{"grad_norm", "policy_loss", "reward", "reward_metric/py/len"}));
    QCOMPARE(panel.plotCount(), int(CurvePanel::PlotCount));
    QVERIFY(model->index(3).data(Qt::ToolTipRole).toString().contains("Reward components")); // also on a fixed plot
    QVERIFY(panel.metricPicker()->isVisibleTo(&panel));

    // The filter field narrows the list, case-insensitively.
    panel.metricFilter()->setText("NORM");
    auto *view = panel.findChild<QListView *>("curvesMetricList");
    QVERIFY(view);
    QCOMPARE(view->model()->rowCount(), 1);
    QCOMPARE(view->model()->index(0, 0).data().toString(), QString("grad_norm"));
    // Checking it (as a click on its box does) gives it a plot of its own.
    QVERIFY(view->model()->setData(view->model()->index(0, 0), Qt::Checked, Qt::CheckStateRole));
    panel.metricFilter()->clear();
    QCOMPARE(view->model()->rowCount(), 4);
    QCOMPARE(panel.plotCount(), int(CurvePanel::PlotCount) + 1);
    // One click on a row's name toggles it once, whatever the style's activation: on and
    // off again (policy_loss, row 1).
    panel.resize(1200, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QRect row = view->visualRect(view->model()->index(1, 0));
    const QPoint onName(row.right() - 10, row.center().y());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, onName);
    QVERIFY(model->isChecked("policy_loss"));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, onName);
    QVERIFY(!model->isChecked("policy_loss"));
    // On its box (which toggles it by itself): once too.
    QStyleOptionViewItem option;
    option.initFrom(view);
    option.rect = row;
    option.features |= QStyleOptionViewItem::HasCheckIndicator;
    const QRect box = view->style()->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &option, view);
    QVERIFY(box.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, box.center());
    QVERIFY(model->isChecked("policy_loss"));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, box.center());
    QVERIFY(!model->isChecked("policy_loss"));
    panel.hide();
    QCustomPlot *grad = panel.metricPlot("grad_norm");
    QVERIFY(grad);
    QCOMPARE(panel.plot(CurvePanel::PlotCount), grad);
    QCOMPARE(qobject_cast<QCPTextElement *>(grad->plotLayout()->element(0, 0))->text(), QString("grad_norm"));
    QCOMPARE(grad->graphCount(), 2); // raw points, smoothed line
    QCOMPARE(grad->graph(0)->dataCount(), 3);
    QCOMPARE(grad->graph(0)->data()->at(2)->value, 6.0);

    // Through the panel: policy_loss, with an overlay that has it too.
    panel.setMetricPlotted("policy_loss", true);
    QVERIFY(model->isChecked("policy_loss"));
    QVERIFY(rwbtest::addOverlay(panel, path, b));
    QCustomPlot *loss = panel.metricPlot("policy_loss");
    QVERIFY(loss);
    QCOMPARE(loss->graphCount(), 4);
    QCOMPARE(legendNames(loss), (QStringList{"alpha #1", "beta #2"}));
    QVERIFY(std::abs(loss->graph(1)->data()->at(0)->value - 0.4) < kTol); // alpha at step 1, smoothed from itself
    QCOMPARE(loss->graph(2)->dataCount(), 2);
    QCOMPARE(grad->graphCount(), 2); // beta has no grad_norm

    // Legends below the plot: in the plot's own layout, not inside its axis rect.
    panel.resize(1200, 1400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCustomPlot *reward = panel.plot(CurvePanel::RewardPlot);
    for (QCustomPlot *p : {reward, loss}) {
        QVERIFY(p->legend->visible());
        QCOMPARE(p->legend->layout(), static_cast<QCPLayout *>(p->plotLayout()));
        p->replot();
        QVERIFY2(!p->legend->outerRect().intersects(p->axisRect()->rect()), qPrintable(p->objectName()));
        QVERIFY(p->legend->outerRect().top() >= p->axisRect()->rect().bottom());
    }

    // A live step brings a new metric to the list at the next redraw.
    TrainingStep live;
    live.runId = a;
    live.step = 4;
    live.metrics = {{"reward", 0.4}, {"step_time", 1.5}, {"grad_norm", 8.0}};
    panel.appendStep(live);
    QTRY_VERIFY(model->metrics().contains("step_time"));
    QTRY_COMPARE(grad->graph(0)->dataCount(), 4);

    // Unchecking takes the plot away; overlays gone, the legend goes too.
    QVERIFY(model->setData(model->index(model->rowOf("grad_norm")), Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(!panel.metricPlot("grad_norm"));
    QCOMPARE(panel.plotCount(), int(CurvePanel::PlotCount) + 1);
    QCOMPARE(panel.pickedMetrics(), QStringList{"policy_loss"});
    panel.clearOverlays();
    QVERIFY(!reward->legend->visible());
    QVERIFY(!reward->legend->layout());
}

void TestCurvePanel::exportCsv()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t a = 0, b = 0;
    {
        store::RunStore w(path.toStdString());
        a = w.beginRun("a", store::RunKind::Grpo, "{}", "company_extraction");
        w.writeStep(a, 1, {{"reward", 0.1}}, {});
        w.writeStep(a, 2, {{"reward", 0.25}, {"entropy", 1.5}}, {});
        b = w.beginRun("b, test", store::RunKind::Grpo, "{}", "company_extraction");
        w.writeStep(b, 1, {{"reward", 0.75}}, {});
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, a));
    QVERIFY(rwbtest::addOverlay(panel, path, b));
    const QString csv = dir.path() + "/curves.csv";
    QString error;
    QVERIFY2(panel.exportCsv(csv, &error), qPrintable(error));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), QString("step,a #1:entropy,a #1:reward,\"b, test #2:reward\"\n"
                                                     "1,,0.1,0.75\n"
                                                     "2,1.5,0.25,\n"));
    QVERIFY(!panel.exportCsv(dir.path() + "/no/such/folder/x.csv", &error));
    QVERIFY2(error.contains("x.csv"), qPrintable(error));
}

void TestCurvePanel::exportPng()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, run));
    const QString png = dir.path() + "/curves.png";
    QString error;
    QVERIFY2(panel.exportPng(png, &error), qPrintable(error));
    QImage image;
    QVERIFY(image.load(png));
    // 2 columns × 4 rows of 640 × 320.
    QCOMPARE(image.size(), QSize(1280, 1280));
    QVERIFY(!panel.exportPng(dir.path() + "/no/such/folder/x.png", &error));
    QVERIFY2(error.contains("x.png"), qPrintable(error));
}

void TestCurvePanel::redrawsCoalesce()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, run));
    QVERIFY(waitForRedraw(panel));
    QTest::qWait(100); // QCustomPlot's own first replot, queued at construction, is over too
    QSignalSpy replots(panel.plot(CurvePanel::RewardPlot), &QCustomPlot::afterReplot);
    for (int s = 6; s < 1006; ++s)
        panel.appendStep(liveStep(run, s, 0.001 * s));
    QCOMPARE(replots.count(), 0); // appending never redraws by itself
    QTRY_COMPARE(replots.count(), 1);
    // Nothing else is pending: the burst of 1000 steps cost exactly one redraw.
    QTest::qWait(200);
    QCOMPARE(replots.count(), 1);
    QCOMPARE(panel.plot(CurvePanel::RewardPlot)->graph(2)->dataCount(), 1005);
}

void TestCurvePanel::hackingAlertBanner()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeHacked(w);
    }
    CurvePanel panel;
    QSignalSpy changed(&panel, &CurvePanel::alertsChanged);
    QVERIFY(rwbtest::showRun(panel, path, run));
    QVERIFY(changed.count() > 0);
    QCOMPARE(panel.alerts().size(), size_t(1));
    QVERIFY(!panel.alertBanner()->isHidden());
    QCOMPARE(panel.alertBannerText(),
             QString("Possible reward hacking: exist rose 0.40 → 0.60 while validation F1 fell 0.22 → 0.17 (steps 1–20)"));
    // Shaded from half a step before step 1 to half a step after step 20, on the reward
    // and component plots only.
    const QList<QPair<double, double>> shaded{qMakePair(0.5, 20.5)};
    QCOMPARE(alertRanges(panel.plot(CurvePanel::ComponentsPlot)), shaded);
    QCOMPARE(alertRanges(panel.plot(CurvePanel::RewardPlot)), shaded);
    QVERIFY(alertRanges(panel.plot(CurvePanel::EntropyPlot)).isEmpty());

    // The banner's links: the rollouts of steps 1–20; the evaluation at or before step 1
    // (step 0) against the latest (step 20).
    QSignalSpy rollouts(&panel, &CurvePanel::rolloutsRequested);
    QSignalSpy compare(&panel, &CurvePanel::checkpointComparisonRequested);
    auto *showRollouts = panel.findChild<QPushButton *>("alertShowRollouts");
    auto *compareButton = panel.findChild<QPushButton *>("alertCompareCheckpoints");
    QVERIFY(showRollouts && compareButton);
    QCOMPARE(showRollouts->text(), QString("Show rollouts"));
    QCOMPARE(compareButton->text(), QString("Compare checkpoints"));
    QTest::mouseClick(showRollouts, Qt::LeftButton);
    QTest::mouseClick(compareButton, Qt::LeftButton);
    QCOMPARE(rollouts.count(), 1);
    QCOMPARE(rollouts.at(0).at(0).toLongLong(), 1);
    QCOMPARE(rollouts.at(0).at(1).toLongLong(), 20);
    QCOMPARE(compare.count(), 1);
    QCOMPARE(compare.at(0).at(0).toLongLong(), 0);
    QCOMPARE(compare.at(0).at(1).toLongLong(), 20);

    // A live step 21 (exist 0.60, F1 0.17 again): window [2, 21] still rises while F1
    // fell from step 0's 0.22 to 0.17, so the same alert grows to steps 1–21.
    TrainingStep t;
    t.runId = run;
    t.step = 21;
    t.metrics = {{"reward", 0.5}, {"rewards/exist/mean", 0.60}, {"rewards/partial/mean", 0.50}, {"eval/f1", 0.17}};
    panel.appendStep(t);
    QCOMPARE(panel.alerts().size(), size_t(1));
    QVERIFY(panel.alertBannerText().endsWith("(steps 1–21)"));
    QCOMPARE(alertRanges(panel.plot(CurvePanel::ComponentsPlot)), (QList<QPair<double, double>>{qMakePair(0.5, 21.5)}));
    QTest::mouseClick(showRollouts, Qt::LeftButton);
    QCOMPARE(rollouts.at(1).at(1).toLongLong(), 21);

    // × hides the banner until a new alert: a collapsed step 22 (1.2 distinct answers).
    QTest::mouseClick(panel.findChild<QPushButton *>("alertDismiss"), Qt::LeftButton);
    QVERIFY(panel.alertBanner()->isHidden());
    t.step = 22;
    t.metrics = {{"completions/distinct_answers_per_group", 1.2}};
    panel.appendStep(t);
    QVERIFY(!panel.alertBanner()->isHidden());
    // The hacking alert, which holds at step 22 too, stays the one named (HackingMonitor::
    // headline: hacking before collapse); the collapse is the other, in the tooltip.
    QVERIFY2(panel.alertBannerText().startsWith("Possible reward hacking: exist rose 0.40 → 0.60"),
             qPrintable(panel.alertBannerText()));
    QVERIFY(panel.alertBannerText().contains("1 other alert"));
    QVERIFY(panel.alertBanner()->findChild<QLabel *>("alertText")->toolTip().contains(
        "Completions collapsing: 1.20 distinct answers per group (threshold ≤ 1.50; step 22)"));

    // Stricter thresholds judge the run again: a rise of 0.20 is below 0.25, and 1.2
    // distinct answers above 1.0.
    eval::HackingSettings strict;
    strict.riseThreshold = 0.25;
    strict.minDistinctAnswers = 1.0;
    panel.setAlertSettings(strict);
    QVERIFY(panel.alerts().empty());
    QVERIFY(panel.alertBanner()->isHidden());
    QVERIFY(alertRanges(panel.plot(CurvePanel::ComponentsPlot)).isEmpty());
}

void TestCurvePanel::noAlertNoBanner()
{
    // Run "alpha" (5 steps: younger than the window) and a live run of 40 flat steps with
    // F1 flat and healthy collapse metrics.
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = writeAlpha(w);
    }
    CurvePanel panel;
    QVERIFY(rwbtest::showRun(panel, path, run));
    QVERIFY(panel.alerts().empty());
    QVERIFY(panel.alertBanner()->isHidden());
    panel.clear();
    for (int s = 0; s <= 40; ++s) {
        TrainingStep t = liveStep(9, s, 0.5);
        t.metrics = {{"reward", 0.5},
                     {"rewards/exist/mean", 0.6},
                     {"rewards/partial/mean", 0.4},
                     {"completions/distinct_answers_per_group", 3.0},
                     {"completions/top_answer_share", 0.2}};
        if (s % 10 == 0)
            t.metrics.append({"eval/f1", 0.5});
        panel.appendStep(t);
    }
    QVERIFY(panel.alerts().empty());
    QVERIFY(panel.alertBanner()->isHidden());
    QVERIFY(panel.alertBannerText().isEmpty());
    QVERIFY(alertRanges(panel.plot(CurvePanel::RewardPlot)).isEmpty());
}

QTEST_MAIN(TestCurvePanel)
#include "tst_curvepanel.moc"
