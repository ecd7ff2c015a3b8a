#pragma once

#include "curveseries.h"
#include "runsession.h"
#include "trainingcontroller.h"

#include "eval/hackingmonitor.h"

#include <QPoint>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>
#include <map>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QDoubleSpinBox;
class QFrame;
class QGridLayout;
class QCPTextElement;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QScrollArea;
class QSlider;
class QSortFilterProxyModel;

namespace rwb::widgets {

class MetricListModel;

// Live training curves of a GRPO run (issue 5): a toolbar and a grid of small plots,
//   0 Reward (mean ± std band)   1 Reward components (rewards/<c>/mean)
//   2 KL                         3 Entropy
//   4 Clip ratios (low/high/region)  5 Completion length (completions/mean_length)
//   6 Validation F1 (eval/f1)    7 Groups with equal rewards (frac_reward_zero_std)
// Each series is drawn twice: its raw points as faint dots and, over them, a line smoothed
// with eval::emaSmooth() (TensorBoard's debiased EMA, see eval/smoothing.h) at smoothing(); the
// Reward band is the raw mean ± std of each step. Validation F1 (a point every eval_every
// steps) is never smoothed: its line joins the evaluations.
//
// Runs: one primary run (setSession, then live points through the session's stepAdded) and any number of
// overlays (addOverlay), each in its own colour, named "<run name> #<id>" in the legends.
// Reward-weight changes are dashed vertical lines at the step they apply from (the run's
// stored reward-config versions after the first, and markWeightChange for live ones),
// labelled on the Reward plot with the weights ("partial 50 · marker 50"; "weights 50 / 50"
// for a live change when the component names are unknown).
//
// Zoom and pan: every plot starts in follow mode (it fits all points after each redraw).
// Any change of its ranges that the panel did not make itself (dragging, the mouse wheel,
// or code calling setRange) ends follow mode for that plot, and new points no longer move
// its view. fit() (the Fit button) puts every plot back in follow mode; double-clicking a
// plot does the same for that plot.
//
// Step cursor: clicking inside a plot (press and release without dragging) sets the
// cursor to the nearest step; one vertical line at that step on every plot.
//
// Redraws: appendStep and markWeightChange only record data; a single-shot 40 ms timer
// coalesces them, so plots redraw at most 25 times a second whatever the event rate.
//
// Reward-hacking alert: the primary run's metrics (stored and live) feed an
// eval::HackingMonitor. Its latest alert shows in a warning banner above the plots (the
// message, the step range, how many other alerts; all of them in the tooltip) with
// "Show rollouts" and "Compare checkpoints", and every alert's step range is shaded on the
// Reward and Reward components plots. The banner's × hides it until a new alert comes.
// Overlays are not watched.
//
// Metric picker: a searchable, checkable list of every metric the runs shown have in the
// store (left of the plots; the Metrics button shows or hides it). A checked metric gets a
// plot of its own after the eight (policy_loss, grad_norm, learning_rate, step_time,
// reward_metric/<component>/<name>, …), drawn like the others and overlaid the same way.
// Legends sit below their plot, never over the curves. Plots scroll when they do not fit.
//
// The panel reads stores through its own read-only RunStore, opened and closed within
// setSession / addOverlay (GUI thread). Use it from the GUI thread only.
class CurvePanel : public QWidget, public RunView {
    Q_OBJECT
public:
    enum Plot {
        RewardPlot,
        ComponentsPlot,
        KlPlot,
        EntropyPlot,
        ClipPlot,
        LengthPlot,
        F1Plot,
        ZeroStdPlot,
        PlotCount
    };

    explicit CurvePanel(QWidget *parent = nullptr);
    ~CurvePanel() override;

    // Loads the session's run history and makes it the primary run, extended by each step
    // the session adds (null: no primary run); clears the previous primary, keeps overlays.
    // Returns false with *error set (naming the file and the run) on failure, leaving the
    // panel as it was.
    bool setSession(RunSession *session, QString *error = nullptr) override;
    // Adds a session's run for comparison (its stored history only, read now); a run
    // already shown is not added twice. Same errors as setSession.
    bool addOverlay(const RunSession &session, QString *error = nullptr);
    void clearOverlays();
    void clear(); // the primary run and every overlay
    int overlayCount() const;

    qint64 stepCursor() const { return m_cursor; } // -1 when none
    // The eight fixed plots and then one per picked metric.
    int plotCount() const { return static_cast<int>(m_plots.size()); }
    // Plot i (nullptr when out of range). Its graphs, in order, for each run (primary
    // first) and each plotted metric by name: [Reward plot only: mean − std, mean + std,]
    // raw points, smoothed line.
    QCustomPlot *plot(int i) const;
    // The plot of a picked metric (nullptr when it is not picked).
    QCustomPlot *metricPlot(const QString &metric) const;
    // Every metric name of the runs shown (and the picked ones), sorted: the picker's list.
    MetricListModel *metricModel() const { return m_metricModel; }
    // Gives `metric` a plot of its own, or takes it away.
    void setMetricPlotted(const QString &metric, bool plotted);
    QStringList pickedMetrics() const;
    // The picker (shown by default) and its filter field.
    QWidget *metricPicker() const { return m_picker; }
    QLineEdit *metricFilter() const { return m_pickerFilter; }
    bool isFollowing(int i) const;   // whether plot i fits new points
    double smoothing() const { return m_smoothing; } // EMA weight 0…0.99 (0 = off)
    // Whether new data waits for the next redraw tick (at most 40 ms away).
    bool redrawPending() const { return m_redrawTimer.isActive(); }

    // Every plot (the picked ones too) in one image (2 columns, 640 × 320 pixels a plot). False with *error
    // naming the file when it cannot be written.
    bool exportPng(const QString &path, QString *error = nullptr) const;
    // CSV (RFC 4180, UTF-8): a "step" column, then one column per metric per run (the
    // primary first, then the overlays; metrics by name), headed "<run label>:<metric>",
    // raw values in shortest round-trip form, an empty cell where a run has no value at
    // that step; one row per step any run has. False with *error naming the file.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // The primary run's alerts, oldest first.
    const std::vector<eval::HackingAlert> &alerts() const { return m_monitor.alerts(); }
    // The alert the banner names (nullptr when none): HackingMonitor::headline.
    const eval::HackingAlert *headlineAlert() const { return m_monitor.headline(); }
    const eval::HackingSettings &alertSettings() const { return m_monitor.settings(); }
    // New thresholds: the primary run is judged again with them.
    void setAlertSettings(const eval::HackingSettings &settings);
    // The banner (hidden when there is no alert or it was dismissed) and its text.
    QFrame *alertBanner() const { return m_alertBanner; }
    QString alertBannerText() const;
    // An alert in the user's language, one line, with its step range.
    static QString alertText(const eval::HackingAlert &alert);

public Q_SLOTS:
    // A live point of the primary run. Ignored when it belongs to another run than the
    // primary one (with no primary run, it starts one named after its run id).
    void appendStep(const rwb::widgets::TrainingStep &step);
    // A live reward-weight change of the primary run, applying from `step`.
    void markWeightChange(qint64 step, const QVector<double> &weights);
    void setStepCursor(qint64 step);
    void setSmoothing(double weight);
    void fit(); // every plot back in follow mode

Q_SIGNALS:
    void stepCursorChanged(qint64 step);
    // The alerts changed (one added or extended, or all gone).
    void alertsChanged();
    // "Show rollouts" on the banner: the rollouts of steps [fromStep, toStep].
    void rolloutsRequested(qint64 fromStep, qint64 toStep);
    // "Compare checkpoints" on the banner: the evaluation at or before the alert's start
    // (the alert's start when the run has none) against the run's latest evaluation (the
    // alert's end when none).
    void checkpointComparisonRequested(qint64 beforeStep, qint64 latestStep);
    // The user changed the thresholds (Alert thresholds… button); they apply already.
    void alertSettingsEdited(const rwb::eval::HackingSettings &settings);

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Marker {
        qint64 step = 0;
        QString label;
    };
    struct Graphs {
        QCPGraph *raw = nullptr;
        QCPGraph *smooth = nullptr;
        QCPGraph *bandLow = nullptr; // Reward only: mean − std …
        QCPGraph *bandHigh = nullptr; // … and mean + std, filled between
    };
    struct Run {
        qint64 id = 0;
        QString storePath;
        QString name; // the run's name; "" for a live run known by its id alone
        std::map<QString, CurveSeries> series; // every metric, by name
        QVector<Marker> markers;
        QStringList componentNames; // of its reward config in force, config order (labels live changes)
        std::map<QString, Graphs> graphs; // the plotted metrics (on the fixed plots)
        std::map<QString, Graphs> picked; // on their own plots
        std::vector<QString> dirty;       // metrics with points not drawn yet
    };
    struct PlotState {
        QCustomPlot *plot = nullptr;
        QCPTextElement *title = nullptr;
        QString metric; // a picked metric's own plot ("" for the fixed plots)
        bool follow = true;
        QCPItemStraightLine *cursor = nullptr;
        QCPItemText *empty = nullptr;
        QVector<QCPAbstractItem *> markerItems;
        QVector<QCPAbstractItem *> alertItems; // shaded alert ranges
        QPoint pressPos;
    };

    std::unique_ptr<Run> loadRun(const RunSession &session, QString *error) const;
    std::vector<Run *> runs() const; // primary first
    void setupPlot(int i, const QString &metric = QString());
    int indexOf(const QCustomPlot *p) const; // -1 when not one of ours
    void placeLegend(PlotState &s, bool show);
    void layoutPlots();             // the grid: the fixed plots, then the picked ones
    void updateMetricList();        // the picker's names from the runs' series
    void retranslate();
    // What the legends and the CSV call a run, in the language of the moment: "<name> #<id>",
    // or "run #<id>" when its name is not known.
    QString runLabel(const Run &run) const;
    void rebuildGraphs();            // all graphs and markers from the runs' data
    void updateGraphs(Run &run, const QString &metric);
    void refresh();                  // brings every graph up to date (no replot)
    void redraw();                   // the timer's tick: refresh, fit followers, replot
    void scheduleRedraw();
    void autoRange(int i);
    void setFollow(int i, bool follow);
    void onRangeChanged(int i);
    void onMouseRelease(int i, const QPoint &pos);
    QString markerLabel(const QVector<double> &weights, const QStringList &names) const;
    void buildAlertBanner();
    void rejudgePrimary();          // the monitor fed afresh from the primary run's series
    void updateAlerts();            // banner, shaded ranges, alertsChanged()
    void retranslateAlerts();
    void editAlertSettings();
    qint64 lastEvalAtOrBefore(qint64 step) const; // -1: none

    std::unique_ptr<Run> m_primary;
    QPointer<RunSession> m_session; // the primary run's
    std::vector<std::unique_ptr<Run>> m_overlays;
    std::vector<PlotState> m_plots; // PlotCount fixed ones, then the picked metrics
    QWidget *m_plotArea = nullptr;  // holds the grid, in m_scroll
    QScrollArea *m_scroll = nullptr;
    QGridLayout *m_grid = nullptr;
    bool m_metricsDirty = false;    // a run has a metric the picker does not list yet
    QTimer m_redrawTimer;
    bool m_structureDirty = false;
    bool m_autoRanging = false; // range changes made by the panel itself
    qint64 m_cursor = -1;
    double m_smoothing = 0.6;
    QSlider *m_smoothingSlider = nullptr;
    QDoubleSpinBox *m_smoothingSpin = nullptr;
    QLabel *m_smoothingLabel = nullptr;
    QPushButton *m_metricsButton = nullptr;
    QPushButton *m_fitButton = nullptr;
    QPushButton *m_pngButton = nullptr;
    QPushButton *m_csvButton = nullptr;
    QWidget *m_picker = nullptr;
    QLabel *m_pickerTitle = nullptr;
    QLineEdit *m_pickerFilter = nullptr;
    QListView *m_pickerView = nullptr;
    MetricListModel *m_metricModel = nullptr;
    QString m_pressedMetric; // the picker's row under the last press, and its state then
    bool m_pressedChecked = false;
    QSortFilterProxyModel *m_pickerProxy = nullptr;

    eval::HackingMonitor m_monitor; // of the primary run
    size_t m_alertsDismissed = 0;   // the banner shows only when there are more alerts than this
    QFrame *m_alertBanner = nullptr;
    QLabel *m_alertLabel = nullptr;
    QPushButton *m_alertRollouts = nullptr;
    QPushButton *m_alertCompare = nullptr;
    QPushButton *m_alertDismiss = nullptr;
    QPushButton *m_alertSettingsButton = nullptr;
};

} // namespace rwb::widgets
