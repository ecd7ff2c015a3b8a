// reward-workbench: the desktop workbench.
#include "guidedtour.h"
#include "jobactions.h"
#include "jobform.h"
#include "languagemanager.h"
#include "mainwindow.h"
#include "notice.h"
#include "rewarddesigner.h"

#include "componentweightseditor.h"
#include "curvepanel.h"
#include "failurecategorymodel.h"
#include "failureexamplemodel.h"
#include "failureexplorer.h"
#include "groupadvantageview.h"
#include "judgedecisionview.h"
#include "mctssynthetic.h"
#include "mctstreesource.h"
#include "mctstreeview.h"
#include "mctsviewer.h"
#include "newtaskdialog.h"
#include "preferenceannotator.h"
#include "rubriceditor.h"
#include "rubricmodel.h"
#include "rolloutbrowser.h"
#include "rollouttablemodel.h"
#include "samplescoremodel.h"
#include "storedocument.h"
#include "engine/localchatbackend.h"
#include "store/runstore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLineEdit>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <cstdio>
#include <vector>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>

namespace {

// `--bench-weights N`: how long the Reward Designer takes to follow a weight change on
// N samples (the bundled set repeated), with the table sorted by total so that every
// change also re-sorts. Prints one JSON object. Target (issue 2): under 50 ms for 1,000.
int benchWeights(int samples)
{
    RewardDesigner designer;
    QString error;
    if (!designer.loadSamples(QStringLiteral(":/samples/company_samples.jsonl"), &error) ||
        !designer.loadConfig(QStringLiteral(":/presets/table2_star_partial20_marker80.json"), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    // The bundled samples repeated (they share their examples, as one e-mail's completions do).
    std::vector<rwb::task::Record> records;
    const int base = designer.model()->rowCount();
    for (int i = 0; static_cast<int>(records.size()) < samples; ++i)
        records.push_back(designer.model()->record(i % base));
    QElapsedTimer load;
    load.start();
    designer.model()->setSamples(designer.model()->task(), std::move(records));
    const double scoreMs = load.nsecsElapsed() / 1e6;
    designer.samplesPanel()->resize(1000, 800);
    designer.samplesPanel()->show();
    designer.table()->sortByColumn(designer.model()->totalColumn(), Qt::DescendingOrder);
    constexpr int kRepeats = 200;
    std::vector<double> ms;
    for (int i = 0; i < kRepeats; ++i) {
        QElapsedTimer t;
        t.start();
        designer.weightsEditor()->editWeight(i % 2, 10.0 + i % 90); // partial / marker, as a user drags
        QCoreApplication::processEvents(); // the repaint the change causes is part of the cost
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    QJsonObject o;
    o[QStringLiteral("benchmark")] = QStringLiteral("designer-weight-change");
    o[QStringLiteral("samples")] = samples;
    o[QStringLiteral("components")] = static_cast<int>(designer.model()->componentNames().size());
    o[QStringLiteral("score_all_ms")] = scoreMs;
    o[QStringLiteral("weight_change_median_ms")] = ms[ms.size() / 2];
    o[QStringLiteral("weight_change_p95_ms")] = ms[ms.size() * 95 / 100];
    o[QStringLiteral("weight_change_max_ms")] = ms.back();
    o[QStringLiteral("target_ms")] = 50;
    o[QStringLiteral("meets_target")] = ms[ms.size() * 95 / 100] < 50.0;
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Indented).constData());
    return 0;
}

// Resident memory of this process in MiB (Linux), for the benchmarks' reports.
double residentMiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0.0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return 0.0;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// `--bench-browser STORE`: how the rollout browser copes with a large run (make one with
// `rwb bench store --rollouts 1000000 --store F` and `rwb store index --store F`): the
// time to open the last run, each scroll to the bottom that fetches the next page (the
// frame a user waits for), a component filter, a full-text search and ← / → stepping,
// with the resident memory. Prints one JSON object.
int benchBrowser(const QString &storePath)
{
    qint64 runId = 0;
    std::shared_ptr<rwb::widgets::StoreDocument> document;
    try {
        document = rwb::widgets::StoreDocument::get(storePath);
        const auto runs = document->store().runs();
        if (runs.empty())
            throw std::runtime_error(storePath.toStdString() + ": no run");
        runId = runs.back().id;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    rwb::widgets::RolloutBrowser browser;
    browser.resize(1400, 900);
    browser.show();
    QCoreApplication::processEvents();
    const double memBefore = residentMiB();
    QElapsedTimer t;
    t.start();
    QString error;
    const std::unique_ptr<rwb::widgets::RunSession> session = rwb::widgets::RunSession::open(document, runId, &error);
    if (!session || !browser.setSession(session.get(), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    QCoreApplication::processEvents();
    const double openMs = t.nsecsElapsed() / 1e6;
    // Scroll to the bottom again and again: each reaches the end of what is loaded, and
    // the view asks for the next page.
    std::vector<double> frames;
    constexpr int kScrolls = 400;
    for (int i = 0; i < kScrolls && browser.model()->canFetchMore({}); ++i) {
        t.restart();
        browser.table()->scrollToBottom();
        QCoreApplication::processEvents();
        frames.push_back(t.nsecsElapsed() / 1e6);
    }
    const int rowsLoaded = browser.model()->rowCount();
    const double memAfter = residentMiB();
    // ← / → through the loaded rows.
    std::vector<double> steps;
    browser.table()->setFocus();
    browser.selectRollout(browser.model()->rollout(0).id);
    for (int i = 0; i < 200; ++i) {
        t.restart();
        browser.next();
        QCoreApplication::processEvents();
        steps.push_back(t.nsecsElapsed() / 1e6);
    }
    t.restart();
    browser.conditionEdit()->setText(QStringLiteral("marker < 0.5"));
    const bool filterOk = browser.applyFilter();
    QCoreApplication::processEvents();
    const double filterMs = t.nsecsElapsed() / 1e6;
    const int filterRows = browser.model()->rowCount();
    browser.conditionEdit()->clear();
    t.restart();
    browser.searchEdit()->setText(QStringLiteral("きらめき"));
    const bool searchOk = browser.applyFilter();
    QCoreApplication::processEvents();
    const double searchMs = t.nsecsElapsed() / 1e6;
    const int searchRows = browser.model()->rowCount();

    QJsonObject o;
    o[QStringLiteral("benchmark")] = QStringLiteral("rollout-browser");
    o[QStringLiteral("store")] = storePath;
    o[QStringLiteral("open_ms")] = openMs;
    o[QStringLiteral("page_fetch_frames")] = static_cast<int>(frames.size());
    o[QStringLiteral("rows_loaded")] = rowsLoaded;
    o[QStringLiteral("scroll_frame_median_ms")] = percentile(frames, 0.5);
    o[QStringLiteral("scroll_frame_p95_ms")] = percentile(frames, 0.95);
    o[QStringLiteral("scroll_frame_max_ms")] = percentile(frames, 1.0);
    o[QStringLiteral("next_median_ms")] = percentile(steps, 0.5);
    o[QStringLiteral("next_p95_ms")] = percentile(steps, 0.95);
    o[QStringLiteral("filter_ms")] = filterMs;
    o[QStringLiteral("filter_ok")] = filterOk;
    o[QStringLiteral("filter_first_page_rows")] = filterRows;
    o[QStringLiteral("search_ms")] = searchMs;
    o[QStringLiteral("search_ok")] = searchOk;
    o[QStringLiteral("search_first_page_rows")] = searchRows;
    o[QStringLiteral("resident_mib_before")] = memBefore;
    o[QStringLiteral("resident_mib_after_scrolling")] = memAfter;
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Indented).constData());
    return 0;
}

double mean(const std::vector<double> &v)
{
    double sum = 0;
    for (double x : v)
        sum += x;
    return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

// `--bench-tree-view N`: how the MCTS tree viewer copes with a synthetic search of N nodes
// (widgets/mctssynthetic.h), read from a record file as a user would open it, in a
// 1400 × 900 window: the time to open it, and full-viewport frames (a synchronous repaint
// of the whole view, the worst case; scrolling alone repaints only the strip uncovered)
// while scrolling at 1:1, panning with the whole tree in view, zooming from the whole
// tree to 8× and back, and stepping through the iterations (the replayed tree, the
// detail and the siblings of the node selected). Prints one JSON object.
int benchTreeView(int nodes)
{
    using rwb::widgets::MctsViewer;
    QElapsedTimer t;
    t.start();
    const rwb::mcts::SearchRecord record = rwb::widgets::syntheticSearchRecord(nodes, 1);
    const double makeMs = t.nsecsElapsed() / 1e6;
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("synthetic.json"));
    {
        std::ofstream out(file.toStdString(), std::ios::binary);
        out << rwb::mcts::toRecordJson(record).dump();
    }
    MctsViewer viewer;
    viewer.resize(1400, 900);
    viewer.show();
    QCoreApplication::processEvents();
    const double memBefore = residentMiB();
    t.restart();
    QString error;
    if (!viewer.setSource(std::make_shared<rwb::widgets::MctsFileSource>(file.toStdString()), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    rwb::widgets::MctsTreeView *view = viewer.view();
    view->viewport()->repaint();
    const double openMs = t.nsecsElapsed() / 1e6;
    const auto frame = [&](const std::function<void()> &change) {
        QElapsedTimer f;
        f.start();
        change();
        view->viewport()->repaint();
        return f.nsecsElapsed() / 1e6;
    };
    // Scrolling at 1:1, left to right and back, a sixth of the viewport a step.
    std::vector<double> scroll;
    view->setZoom(1.0);
    QScrollBar *h = view->horizontalScrollBar();
    h->setValue(h->minimum());
    for (int i = 0, dir = 1; i < 300; ++i) {
        if (h->value() >= h->maximum())
            dir = -1;
        else if (h->value() <= h->minimum())
            dir = 1;
        scroll.push_back(frame([&] { h->setValue(h->value() + dir * view->viewport()->width() / 6); }));
    }
    // Panning with the whole tree in view: every node painted each frame.
    std::vector<double> fitPan;
    view->zoomToFit();
    for (int i = 0; i < 100; ++i)
        fitPan.push_back(frame([&] { view->verticalScrollBar()->setValue(view->verticalScrollBar()->value() + (i % 2 ? 3 : -3));
                                     view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->value() + (i % 2 ? 5 : -5)); }));
    // Zooming in on the most visited path from the whole tree to 8×, and out again.
    std::vector<double> zoom;
    view->zoomToFit();
    const int target = view->tree().mostVisitedPath().back();
    view->centreOnNode(target);
    for (int i = 0; i < 120; ++i) {
        const bool in = i < 60;
        zoom.push_back(frame([&] {
            view->setZoom(view->zoom() * (in ? 1.12 : 1 / 1.12));
            view->centreOnNode(target);
        }));
    }
    // Stepping through the iterations: one at a time (→) from the middle of the search,
    // and jumps across the slider.
    std::vector<double> step, jump;
    view->showOverview();
    view->selectNode(target);
    const int count = view->iterationCount();
    viewer.setIteration(count / 2);
    for (int i = 0; i < 100; ++i)
        step.push_back(frame([&] { viewer.stepIteration(1); }));
    for (int i = 0; i <= 40; ++i)
        jump.push_back(frame([&] { viewer.setIteration(count * ((i * 7) % 41) / 40); }));
    const double memAfter = residentMiB();

    const auto stats = [](const std::vector<double> &v) {
        QJsonObject o;
        o[QStringLiteral("frames")] = static_cast<int>(v.size());
        o[QStringLiteral("mean_ms")] = mean(v);
        o[QStringLiteral("p95_ms")] = percentile(v, 0.95);
        o[QStringLiteral("max_ms")] = percentile(v, 1.0);
        return o;
    };
    QJsonObject o;
    o[QStringLiteral("benchmark")] = QStringLiteral("mcts-tree-view");
    o[QStringLiteral("nodes")] = static_cast<int>(record.tree.nodes().size());
    o[QStringLiteral("iterations")] = count;
    o[QStringLiteral("depth")] = record.maxDepth();
    o[QStringLiteral("tree_width_px")] = view->treeLayout().bounds().width();
    o[QStringLiteral("viewport")] =
        QStringLiteral("%1x%2").arg(view->viewport()->width()).arg(view->viewport()->height());
    o[QStringLiteral("make_record_ms")] = makeMs;
    o[QStringLiteral("open_ms")] = openMs;
    o[QStringLiteral("scroll_1to1")] = stats(scroll);
    o[QStringLiteral("pan_whole_tree")] = stats(fitPan);
    o[QStringLiteral("zoom")] = stats(zoom);
    o[QStringLiteral("iteration_step")] = stats(step);
    o[QStringLiteral("iteration_jump")] = stats(jump);
    o[QStringLiteral("resident_mib_before")] = memBefore;
    o[QStringLiteral("resident_mib_after")] = memAfter;
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Indented).constData());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    rwb::engine::installLocalChatBackend(); // judges may run a model folder in-process
    QApplication::setOrganizationName(QStringLiteral("RewardWorkbench"));
    QApplication::setApplicationName(QStringLiteral("reward-workbench"));
    QApplication::setApplicationVersion(QStringLiteral(RWB_VERSION));

    // The language first, so that --help is translated too; --lang is read again below.
    LanguageManager language;
    QString langArg;
    for (int i = 1; i + 1 < argc; ++i)
        if (QByteArray(argv[i]) == "--lang")
            langArg = QString::fromLocal8Bit(argv[i + 1]);
    language.setChoice(langArg.isEmpty() ? LanguageManager::storedChoice() : langArg);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Reward Workbench: design and debug rewards for GRPO fine-tuning."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption samples(QStringLiteral("samples"), QCoreApplication::translate("main", "Extraction samples to open (JSONL)."),
                                     QCoreApplication::translate("main", "file"));
    const QCommandLineOption config(QStringLiteral("config"), QCoreApplication::translate("main", "Reward config to open (JSON)."),
                                    QCoreApplication::translate("main", "file"));
    const QCommandLineOption lang(QStringLiteral("lang"), QCoreApplication::translate("main", "Language: system, en or ja (remembered)."),
                                  QCoreApplication::translate("main", "code"));
    const QCommandLineOption select(QStringLiteral("select"), QCoreApplication::translate("main", "Select this row of the sample table."),
                                    QCoreApplication::translate("main", "row"), QStringLiteral("0"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QCoreApplication::translate("main", "Save a screenshot of the window to this PNG and quit."),
                                        QCoreApplication::translate("main", "png"));
    const QCommandLineOption benchWeightsOption(
        QStringLiteral("bench-weights"),
        QCoreApplication::translate("main", "Benchmark: time a weight change on this many samples, print JSON and quit."),
        QCoreApplication::translate("main", "count"));
    const QCommandLineOption workspace(QStringLiteral("workspace"),
                                       QCoreApplication::translate("main", "Open this workspace folder (remembered)."),
                                       QCoreApplication::translate("main", "folder"));
    const QCommandLineOption store(QStringLiteral("store"), QCoreApplication::translate("main", "Open a run store (SQLite)."),
                                   QCoreApplication::translate("main", "file"));
    const QCommandLineOption run(QStringLiteral("run"),
                                 QCoreApplication::translate("main", "The run of the store to show (default: the last)."),
                                 QCoreApplication::translate("main", "id"));
    const QCommandLineOption train(QStringLiteral("train"),
                                   QCoreApplication::translate("main", "Start GRPO training with this config (JSON) and follow it live."),
                                   QCoreApplication::translate("main", "file"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QCoreApplication::translate("main", "The view to show: design, curves, groups, rollouts, failures or judge."),
                                  QCoreApplication::translate("main", "name"));
    const QCommandLineOption step(QStringLiteral("step"),
                                  QCoreApplication::translate("main", "The step to show in the group view."),
                                  QCoreApplication::translate("main", "step"));
    const QCommandLineOption rollout(QStringLiteral("rollout"),
                                     QCoreApplication::translate("main", "The rollout to open in the browser and the token view."),
                                     QCoreApplication::translate("main", "id"));
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QCoreApplication::translate("main", "Failure explorer: checkpoint steps A,B to compare."),
                                     QCoreApplication::translate("main", "a,b"));
    const QCommandLineOption metricPlots(
        QStringLiteral("metrics"),
        QCoreApplication::translate("main", "Curves: give these metrics (comma-separated) plots of their own, as the metric picker does."),
        QCoreApplication::translate("main", "names"));
    const QCommandLineOption failureCategory(
        QStringLiteral("failure-category"),
        QCoreApplication::translate("main", "Failure explorer: the category to list, by key (grader_failure), its first example opened."),
        QCoreApplication::translate("main", "key"));
    const QCommandLineOption screenshotDelay(QStringLiteral("screenshot-delay"),
                                             QCoreApplication::translate("main", "Milliseconds to wait before the screenshot."),
                                             QCoreApplication::translate("main", "ms"), QStringLiteral("1500"));
    const QCommandLineOption benchBrowserOption(
        QStringLiteral("bench-browser"),
        QCoreApplication::translate("main", "Benchmark: the rollout browser on the last run of this store, print JSON and quit."),
        QCoreApplication::translate("main", "file"));
    const QCommandLineOption decision(QStringLiteral("decision"),
                                      QCoreApplication::translate("main", "The judge decision to show in the judge view."),
                                      QCoreApplication::translate("main", "id"));
    const QCommandLineOption rubricItem(QStringLiteral("rubric-item"),
                                        QCoreApplication::translate("main", "Open this item of the rubric editor for editing (its weight)."),
                                        QCoreApplication::translate("main", "row"));
    const QCommandLineOption sampleColumn(QStringLiteral("sample-column"),
                                          QCoreApplication::translate("main", "Scroll the Designer's sample table to this component's column."),
                                          QCoreApplication::translate("main", "name"));
    const QCommandLineOption dock(QStringLiteral("dock"),
                                  QCoreApplication::translate("main", "The left dock to show: components, training or runs."),
                                  QCoreApplication::translate("main", "name"));
    const QCommandLineOption mcts(QStringLiteral("mcts"),
                                  QCoreApplication::translate("main", "Open the MCTS tree viewer on a search record (JSON), a folder of them, or a run store (its last MCTS run, followed while it runs)."),
                                  QCoreApplication::translate("main", "file, folder or store"));
    const QCommandLineOption mctsTree(QStringLiteral("mcts-tree"),
                                      QCoreApplication::translate("main", "The tree the tree viewer shows (its id in the run store, or its file's place in the folder)."),
                                      QCoreApplication::translate("main", "id"));
    const QCommandLineOption mctsIteration(QStringLiteral("mcts-iteration"),
                                           QCoreApplication::translate("main", "The iteration the tree viewer shows (default: the last)."),
                                           QCoreApplication::translate("main", "n"));
    const QCommandLineOption mctsNode(QStringLiteral("mcts-node"),
                                      QCoreApplication::translate("main", "The node the tree viewer selects and centres."),
                                      QCoreApplication::translate("main", "id"));
    const QCommandLineOption mctsPrm(QStringLiteral("mcts-prm"),
                                     QCoreApplication::translate("main", "A process reward model's folder: the tree viewer shows its score of every step."),
                                     QCoreApplication::translate("main", "folder"));
    const QCommandLineOption annotate(QStringLiteral("annotate"),
                                      QCoreApplication::translate("main", "Open the annotation view on the preference pairs of a run store."),
                                      QCoreApplication::translate("main", "store"));
    const QCommandLineOption pairSet(QStringLiteral("pair-set"),
                                     QCoreApplication::translate("main", "The pair set the annotation view opens (default: the first)."),
                                     QCoreApplication::translate("main", "name"));
    const QCommandLineOption annotatorName(QStringLiteral("annotator"),
                                           QCoreApplication::translate("main", "Whose labels the annotation view writes."),
                                           QCoreApplication::translate("main", "name"));
    const QCommandLineOption pairOption(QStringLiteral("pair"),
                                        QCoreApplication::translate("main", "The pair the annotation view shows."),
                                        QCoreApplication::translate("main", "id"));
    const QCommandLineOption benchTreeViewOption(
        QStringLiteral("bench-tree-view"),
        QCoreApplication::translate("main", "Benchmark: the MCTS tree viewer on a synthetic tree of this many nodes, print JSON and quit."),
        QCoreApplication::translate("main", "count"));
    const QCommandLineOption newTask(QStringLiteral("new-task"),
                                     QCoreApplication::translate("main", "Open File ▸ New task from data on this JSONL file."),
                                     QCoreApplication::translate("main", "file"));
    const QCommandLineOption tour(QStringLiteral("tour"),
                                  QCoreApplication::translate("main", "Open the guided tour above the views, unless its “Don't show again” was checked."));
    const QCommandLineOption job(QStringLiteral("job"),
                                 QCoreApplication::translate("main", "Open the form of a Jobs menu job (mcts, prm-pairs, prm-train, prm-rft, judge-eval, import)."),
                                 QStringLiteral("kind"));
    parser.addOption(job);
    const QCommandLineOption windowSize(QStringLiteral("window-size"),
                                        QCoreApplication::translate("main", "The main window's size in pixels (WIDTHxHEIGHT), e.g. a screen's whole size for a screenshot."),
                                        QStringLiteral("size"));
    parser.addOption(windowSize);
    const QCommandLineOption jobValue(QStringLiteral("job-value"),
                                      QCoreApplication::translate("main", "With --job: set a field of the form (KEY=VALUE; may repeat)."),
                                      QStringLiteral("key=value"));
    const QCommandLineOption jobStart(QStringLiteral("job-start"),
                                      QCoreApplication::translate("main", "With --job: start the job at once (what Start does), and follow it in the Jobs dock."));
    parser.addOptions({jobValue, jobStart});
    parser.addOptions({samples, config, lang, select, screenshot, benchWeightsOption, workspace, store, run, train, view,
                       step, rollout, compare, failureCategory, metricPlots, screenshotDelay, benchBrowserOption, dock, decision, rubricItem, sampleColumn,
                       mcts, mctsTree, mctsIteration, mctsNode, benchTreeViewOption, annotate, pairSet, annotatorName,
                       pairOption, mctsPrm, newTask, tour});
    parser.process(app);
    if (parser.isSet(benchTreeViewOption))
        return benchTreeView(std::max(1, parser.value(benchTreeViewOption).toInt()));
    if (parser.isSet(benchBrowserOption))
        return benchBrowser(parser.value(benchBrowserOption));
    if (parser.isSet(benchWeightsOption))
        return benchWeights(std::max(1, parser.value(benchWeightsOption).toInt()));

    MainWindow window(&language);
    window.openInitialFiles(parser.value(samples), parser.value(config));
    window.designer()->selectRow(parser.value(select).toInt());
    QString error;
    // What the command line named and could not be opened: on stderr, and in the window
    // once it shows (an empty window alone would not say why).
    const auto report = [&window](const QString &title, const QString &message) {
        std::fprintf(stderr, "%s\n", qPrintable(message));
        QTimer::singleShot(0, &window, [&window, title, message] { showNotice(&window, title, message); });
    };
    if (parser.isSet(workspace)) {
        if (!window.openWorkspace(parser.value(workspace), &error))
            report(QCoreApplication::translate("main", "Open workspace"), error);
    } else {
        window.restoreWorkspace();
    }
    if (parser.isSet(store)) {
        qint64 runId = parser.value(run).toLongLong();
        const QString storePath = parser.value(store);
        if (!QFileInfo::exists(storePath)) {
            report(QCoreApplication::translate("main", "Open run store"),
                   QCoreApplication::translate("main", "%1: no such run store").arg(QFileInfo(storePath).absoluteFilePath()));
            runId = 0;
        } else if (runId <= 0) {
            try { // the last run of the store
                const auto runs = rwb::widgets::StoreDocument::get(storePath)->store().runs();
                runId = runs.empty() ? 0 : runs.back().id;
            } catch (const std::exception &e) {
                report(QCoreApplication::translate("main", "Open run store"), QString::fromUtf8(e.what()));
            }
        }
        if (runId > 0 && !window.openRun(storePath, runId, &error))
            report(QCoreApplication::translate("main", "Open run store"), error);
    }
    if (parser.isSet(train) && !window.startTrainingFromFile(parser.value(train), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    if (parser.isSet(step))
        window.groups()->showStep(parser.value(step).toLongLong());
    if (parser.isSet(rollout))
        window.rollouts()->selectRollout(parser.value(rollout).toLongLong());
    if (parser.isSet(decision))
        window.judge()->selectDecision(parser.value(decision).toLongLong());
    if (parser.isSet(compare)) {
        const QStringList ab = parser.value(compare).split(QLatin1Char(','));
        window.failures()->showCheckpoint(ab.value(0).toLongLong());
        if (ab.size() > 1) {
            window.failures()->compareWith(ab.value(1).toLongLong());
            // What broke between A and B, the first of its e-mails opened.
            if (window.failures()->selectCategory(rwb::widgets::FailureCategoryModel::BrokeFilter) &&
                window.failures()->exampleModel()->rowCount() > 0)
                window.failures()->selectExample(window.failures()
                                                     ->exampleModel()
                                                     ->index(0, 0)
                                                     .data(rwb::widgets::FailureExampleModel::IdRole)
                                                     .toString());
        }
    }
    if (parser.isSet(failureCategory)) {
        const rwb::widgets::FailureCategoryModel *categories = window.failures()->categoryModel();
        for (int i = 0; i < categories->categoryCount(); ++i)
            if (categories->key(i) == parser.value(failureCategory) && window.failures()->selectCategory(i) &&
                window.failures()->exampleModel()->rowCount() > 0)
                window.failures()->selectExample(window.failures()
                                                     ->exampleModel()
                                                     ->index(0, 0)
                                                     .data(rwb::widgets::FailureExampleModel::IdRole)
                                                     .toString());
    }
    if (parser.isSet(metricPlots))
        for (const QString &name : parser.value(metricPlots).split(QLatin1Char(','), Qt::SkipEmptyParts))
            window.curves()->setMetricPlotted(name.trimmed(), true);
    if (parser.isSet(view)) {
        const QStringList names{QStringLiteral("design"),   QStringLiteral("curves"),   QStringLiteral("groups"),
                                QStringLiteral("rollouts"), QStringLiteral("failures"), QStringLiteral("judge")};
        const int i = names.indexOf(parser.value(view));
        if (i < 0) {
            std::fprintf(stderr, "--view: unknown view '%s' (one of %s)\n", qPrintable(parser.value(view)),
                         qPrintable(names.join(QStringLiteral(", "))));
            return 2;
        }
        window.showView(static_cast<MainWindow::View>(i));
    }
    if (parser.isSet(dock)) {
        const QHash<QString, QString> docks{{QStringLiteral("components"), QStringLiteral("rewardComponentsDock")},
                                            {QStringLiteral("training"), QStringLiteral("trainingDock")},
                                            {QStringLiteral("runs"), QStringLiteral("runsDock")}};
        QDockWidget *d = window.findChild<QDockWidget *>(docks.value(parser.value(dock)));
        if (!d) {
            std::fprintf(stderr, "--dock: unknown dock '%s' (components, training or runs)\n", qPrintable(parser.value(dock)));
            return 2;
        }
        d->show();
        d->raise();
    }
    if (parser.isSet(tour))
        window.tour()->showAtStart();
    if (parser.isSet(windowSize)) {
        const QStringList wh = parser.value(windowSize).split(QLatin1Char('x'));
        const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
        if (wh.size() == 2 && w > 0 && h > 0)
            window.resize(w, h);
        else
            std::fprintf(stderr, "--window-size: expected WIDTHxHEIGHT, e.g. 2560x1440, not '%s'\n",
                         qPrintable(parser.value(windowSize)));
    }
    window.show();
    if (parser.isSet(sampleColumn))
        window.designer()->showComponentColumn(parser.value(sampleColumn));
    if (parser.isSet(rubricItem))
        window.designer()->rubricEditor()->editItem(parser.value(rubricItem).toInt(), rwb::widgets::RubricModel::WeightColumn);

    // The tree viewer opens in its own window, over the main one; --screenshot grabs it.
    QWidget *shot = &window;
    if (parser.isSet(mcts)) {
        if (!window.openSearchTrees(parser.value(mcts), &error))
            std::fprintf(stderr, "%s\n", qPrintable(error)); // shown in the viewer too
        rwb::widgets::MctsViewer *trees = window.searchTrees();
        if (parser.isSet(mctsTree) && !trees->showTree(parser.value(mctsTree).toLongLong(), &error))
            std::fprintf(stderr, "%s\n", qPrintable(error));
        if (parser.isSet(mctsPrm) && !trees->setProcessRewardModel(parser.value(mctsPrm), &error))
            std::fprintf(stderr, "%s\n", qPrintable(error));
        if (parser.isSet(mctsIteration))
            trees->setIteration(parser.value(mctsIteration).toInt());
        if (parser.isSet(mctsNode)) {
            const int id = parser.value(mctsNode).toInt();
            trees->selectNode(id);
            // Centred once the window has its size (the view lays out when shown).
            QTimer::singleShot(0, trees, [trees, id] { trees->view()->centreOnNode(id); });
        }
        shot = trees;
    }

    if (parser.isSet(annotate)) {
        rwb::widgets::PreferenceAnnotator *a = window.annotator();
        if (parser.isSet(annotatorName))
            a->setAnnotator(parser.value(annotatorName));
        if (!window.openAnnotator(parser.value(annotate), parser.value(pairSet), &error))
            std::fprintf(stderr, "%s\n", qPrintable(error)); // shown in the view too
        if (parser.isSet(pairOption) && !a->showPair(parser.value(pairOption).toLongLong()))
            std::fprintf(stderr, "no pair %s in the set\n", qPrintable(parser.value(pairOption)));
        shot = a;
    }

    // The dialog opens over the main window (window-modal, not blocking); --screenshot grabs it.
    if (parser.isSet(newTask))
        shot = window.openNewTaskDialog(parser.value(newTask));

    // A job's form opens over the main window (not modal); --screenshot grabs it.
    if (parser.isSet(job)) {
        if (rwb::widgets::JobForm *form = window.jobActions()->openForm(parser.value(job))) {
            for (const QString &kv : parser.values(jobValue)) {
                if (!form->field(kv.section(QLatin1Char('='), 0, 0)))
                    std::fprintf(stderr, "--job-value: the form has no field '%s'\n", qPrintable(kv.section(QLatin1Char('='), 0, 0)));
                form->setValue(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
            }
            shot = form;
            if (parser.isSet(jobStart)) {
                // Validated first: Start refuses a form with problems, and says why.
                QStringList problems;
                if (!form->validate(&problems))
                    std::fprintf(stderr, "--job-start: %s\n", qPrintable(problems.join(QStringLiteral("; "))));
                else
                    form->accept();
                shot = &window;
            }
        } else {
            std::fprintf(stderr, "--job: no job '%s' can start here\n", qPrintable(parser.value(job)));
        }
    }

    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        QTimer::singleShot(parser.value(screenshotDelay).toInt(), &window, [shot, path] {
            const bool ok = shot->grab().save(path);
            QApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
