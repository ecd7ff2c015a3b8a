#include "curvepanel.h"

#include "eval/smoothing.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "task/task.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QFrame>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <set>

#include "curveqcp.h"
#include "metriclistmodel.h"
#include "storedrewardconfig.h"

namespace rwb::widgets {

namespace {

// Redraw period: at most 25 redraws a second (DESIGN.md, Threads).
constexpr int kRedrawMs = 40;
// The smoothing slider's range is 0 … kSliderSteps / 100.
constexpr int kSliderSteps = 99;
// One plot's size in the exported PNG.
constexpr int kExportWidth = 640;
constexpr int kExportHeight = 320;
// Plots per row of the grid (and of the exported image).
constexpr int kColumns = 2;
// A press and release closer than this many pixels is a click, not a drag.
constexpr int kClickSlop = 4;

// Distinct colours for runs and components (matplotlib's tab10).
const QColor kPalette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                           QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                           QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                           QColor(0x17, 0xbe, 0xcf)};
constexpr int kPaletteSize = static_cast<int>(sizeof(kPalette) / sizeof(kPalette[0]));
// Line styles telling overlay runs apart on plots coloured by component.
const Qt::PenStyle kRunStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};

QColor colour(int i)
{
    return kPalette[((i % kPaletteSize) + kPaletteSize) % kPaletteSize];
}

// "eval/<headline>" of every task the workbench knows (eval/f1, eval/joint): a run logs
// its own task's, which the validation plot and the hacking monitor follow.
// Asked each time: a user's task installed since (a run of it opened) brings its own.
std::vector<std::string> validationMetrics()
{
    std::vector<std::string> out;
    for (const std::string &name : task::Catalog::builtin().names())
        out.push_back("eval/" + std::string(task::Catalog::builtin().find(name)->headlineMetric()));
    return out;
}

// Which plot a metric goes on (-1: none) and its name in that plot's legend. TRL's names,
// as core/train/grpo.cpp writes them.
int plotOf(const QString &metric, QString *label = nullptr)
{
    auto named = [&](const QString &l) {
        if (label)
            *label = l;
    };
    if (metric == QLatin1String("reward")) {
        named(metric);
        return CurvePanel::RewardPlot;
    }
    if (metric.startsWith(QLatin1String("rewards/")) && metric.endsWith(QLatin1String("/mean"))) {
        named(metric.mid(8, metric.size() - 8 - 5));
        return CurvePanel::ComponentsPlot;
    }
    // What a component's own function logged (a Python reward's log_metric, a remote
    // reward's extra_logs): beside the components, as "<component>/<name>".
    if (metric.startsWith(QLatin1String("reward_metric/"))) {
        named(metric.mid(14));
        return CurvePanel::ComponentsPlot;
    }
    if (metric == QLatin1String("kl")) {
        named(metric);
        return CurvePanel::KlPlot;
    }
    if (metric == QLatin1String("entropy")) {
        named(metric);
        return CurvePanel::EntropyPlot;
    }
    if (metric.startsWith(QLatin1String("clip_ratio/")) && metric.endsWith(QLatin1String("_mean"))) {
        named(metric.mid(11, metric.size() - 11 - 5)); // low, high, region
        return CurvePanel::ClipPlot;
    }
    if (metric == QLatin1String("completions/mean_length")) {
        named(QStringLiteral("mean"));
        return CurvePanel::LengthPlot;
    }
    if (metric.startsWith(QLatin1String("eval/"))) {
        const std::string m = metric.toStdString();
        const auto &v = validationMetrics();
        if (std::find(v.begin(), v.end(), m) != v.end()) {
            named(metric == QLatin1String("eval/f1") ? QStringLiteral("F1") : metric.mid(5));
            return CurvePanel::F1Plot;
        }
    }
    if (metric == QLatin1String("frac_reward_zero_std")) {
        named(metric);
        return CurvePanel::ZeroStdPlot;
    }
    return -1;
}

const QString kRewardStd = QStringLiteral("reward_std");

bool multiSeries(int plot)
{
    return plot == CurvePanel::ComponentsPlot || plot == CurvePanel::ClipPlot;
}

QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))
        && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString shortest(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

// Alert colours: a warning amber, the banner's text and frame, and the shaded ranges.
const QColor kAlertBackground(0xff, 0xf3, 0xcd);
const QColor kAlertText(0x66, 0x4d, 0x03);
const QColor kAlertBorder(0xe0, 0xa8, 0x00);
const QColor kAlertShade(0xff, 0xa0, 0x00, 45);
// The most alerts the banner's tooltip lists (the latest ones).
constexpr size_t kTooltipAlerts = 20;

QString fixed2(double v)
{
    return QString::number(v, 'f', 2);
}

// The fixed plots' titles and value axes (translated where shown).
const char *const kTitles[CurvePanel::PlotCount] = {
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Reward (mean ± std)"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Reward components"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "KL divergence"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Entropy"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Clip ratios"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Completion length"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Validation (headline metric)"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "Groups with equal rewards")};
const char *const kUnits[CurvePanel::PlotCount] = {
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "reward"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "mean reward"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "KL (k3)"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "nats / token"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "fraction of tokens"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "tokens"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "headline metric"),
    QT_TRANSLATE_NOOP("rwb::widgets::CurvePanel", "fraction of groups")};

} // namespace

CurvePanel::CurvePanel(QWidget *parent)
    : QWidget(parent)
{
    {
        eval::HackingSettings settings;
        settings.validationMetrics = validationMetrics();
        m_monitor.setSettings(settings);
    }
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    m_metricsButton = new QPushButton(this);
    m_metricsButton->setObjectName(QStringLiteral("curvesMetricsButton"));
    m_metricsButton->setCheckable(true);
    m_metricsButton->setChecked(true);
    m_smoothingLabel = new QLabel(this);
    m_smoothingSlider = new QSlider(Qt::Horizontal, this);
    m_smoothingSlider->setRange(0, kSliderSteps);
    m_smoothingSlider->setMaximumWidth(160);
    m_smoothingSpin = new QDoubleSpinBox(this);
    m_smoothingSpin->setRange(0.0, kSliderSteps / 100.0);
    m_smoothingSpin->setSingleStep(0.01);
    m_smoothingSpin->setDecimals(2);
    m_smoothingLabel->setBuddy(m_smoothingSpin);
    m_fitButton = new QPushButton(this);
    m_pngButton = new QPushButton(this);
    m_csvButton = new QPushButton(this);
    bar->addWidget(m_metricsButton);
    bar->addSpacing(8);
    bar->addWidget(m_smoothingLabel);
    bar->addWidget(m_smoothingSlider);
    bar->addWidget(m_smoothingSpin);
    bar->addStretch(1);
    m_alertSettingsButton = new QPushButton(this);
    bar->addWidget(m_fitButton);
    bar->addWidget(m_pngButton);
    bar->addWidget(m_csvButton);
    bar->addWidget(m_alertSettingsButton);
    outer->addLayout(bar);
    buildAlertBanner();
    outer->addWidget(m_alertBanner);

    // The metric picker: a filter field over the runs' metric names, each checkable.
    m_metricModel = new MetricListModel(this);
    m_pickerProxy = new QSortFilterProxyModel(this);
    m_pickerProxy->setSourceModel(m_metricModel);
    m_pickerProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_picker = new QWidget(this);
    m_picker->setObjectName(QStringLiteral("curvesMetricPicker"));
    auto *pickerLayout = new QVBoxLayout(m_picker);
    pickerLayout->setContentsMargins(4, 2, 0, 2);
    m_pickerTitle = new QLabel(m_picker);
    m_pickerTitle->setWordWrap(true);
    m_pickerFilter = new QLineEdit(m_picker);
    m_pickerFilter->setObjectName(QStringLiteral("curvesMetricFilter"));
    m_pickerFilter->setClearButtonEnabled(true);
    m_pickerView = new QListView(m_picker);
    m_pickerView->setObjectName(QStringLiteral("curvesMetricList"));
    m_pickerView->setModel(m_pickerProxy);
    m_pickerView->setUniformItemSizes(true);
    m_pickerView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    pickerLayout->addWidget(m_pickerTitle);
    pickerLayout->addWidget(m_pickerFilter);
    pickerLayout->addWidget(m_pickerView, 1);
    m_picker->setMinimumWidth(120);

    m_plotArea = new QWidget(this);
    m_grid = new QGridLayout(m_plotArea);
    m_grid->setContentsMargins(2, 2, 2, 2);
    m_grid->setSpacing(2);
    for (int i = 0; i < PlotCount; ++i)
        setupPlot(i);
    layoutPlots();
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("curvesScroll"));
    m_scroll->setWidget(m_plotArea);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("curvesSplitter"));
    splitter->addWidget(m_picker);
    splitter->addWidget(m_scroll);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({200, 1000});
    outer->addWidget(splitter, 1);

    connect(m_metricsButton, &QPushButton::toggled, m_picker, &QWidget::setVisible);
    connect(m_pickerFilter, &QLineEdit::textChanged, m_pickerProxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_metricModel, &MetricListModel::checkedChanged, this, &CurvePanel::setMetricPlotted);
    // A click anywhere on a row toggles it, not only on its check box: the state at the
    // press is noted, and a click that has not changed it (not on the box, which toggles by
    // itself) toggles it. Once per click whatever the style's single- or double-click
    // activation; the keyboard's Space toggles the row as in any check list.
    connect(m_pickerView, &QListView::pressed, this, [this](const QModelIndex &index) {
        m_pressedMetric = index.data(Qt::DisplayRole).toString();
        m_pressedChecked = m_metricModel->isChecked(m_pressedMetric);
    });
    connect(m_pickerView, &QListView::clicked, this, [this](const QModelIndex &index) {
        const QString name = index.data(Qt::DisplayRole).toString();
        if (name == m_pressedMetric && m_metricModel->isChecked(name) == m_pressedChecked)
            m_metricModel->setChecked(name, !m_pressedChecked);
        m_pressedMetric.clear();
    });

    m_smoothingSlider->setValue(qRound(m_smoothing * 100));
    m_smoothingSpin->setValue(m_smoothing);
    connect(m_smoothingSlider, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 100.0); });
    connect(m_smoothingSpin, &QDoubleSpinBox::valueChanged, this, &CurvePanel::setSmoothing);
    connect(m_fitButton, &QPushButton::clicked, this, &CurvePanel::fit);
    connect(m_pngButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export curves as PNG"), QStringLiteral("curves.png"),
                                                          tr("PNG images (*.png)"));
        QString error;
        if (!path.isEmpty() && !exportPng(path, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    connect(m_csvButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export curves as CSV"), QStringLiteral("curves.csv"),
                                                          tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });

    connect(m_alertSettingsButton, &QPushButton::clicked, this, &CurvePanel::editAlertSettings);

    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(kRedrawMs);
    connect(&m_redrawTimer, &QTimer::timeout, this, &CurvePanel::redraw);
    retranslate();
}

CurvePanel::~CurvePanel() = default;

void CurvePanel::buildAlertBanner()
{
    m_alertBanner = new QFrame(this);
    m_alertBanner->setObjectName(QStringLiteral("alertBanner"));
    m_alertBanner->setFrameShape(QFrame::StyledPanel);
    m_alertBanner->setStyleSheet(QStringLiteral("QFrame#alertBanner { background: %1; border: 1px solid %2; border-radius: 3px; }"
                                                "QFrame#alertBanner QLabel { color: %3; }")
                                     .arg(kAlertBackground.name(), kAlertBorder.name(), kAlertText.name()));
    auto *layout = new QHBoxLayout(m_alertBanner);
    layout->setContentsMargins(8, 4, 4, 4);
    auto *icon = new QLabel(m_alertBanner);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(20, 20));
    m_alertLabel = new QLabel(m_alertBanner);
    m_alertLabel->setObjectName(QStringLiteral("alertText"));
    m_alertLabel->setWordWrap(true);
    m_alertLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_alertRollouts = new QPushButton(m_alertBanner);
    m_alertRollouts->setObjectName(QStringLiteral("alertShowRollouts"));
    m_alertCompare = new QPushButton(m_alertBanner);
    m_alertCompare->setObjectName(QStringLiteral("alertCompareCheckpoints"));
    m_alertDismiss = new QPushButton(QStringLiteral("×"), m_alertBanner);
    m_alertDismiss->setObjectName(QStringLiteral("alertDismiss"));
    m_alertDismiss->setFlat(true);
    m_alertDismiss->setFixedWidth(24);
    layout->addWidget(icon);
    layout->addWidget(m_alertLabel, 1);
    layout->addWidget(m_alertRollouts);
    layout->addWidget(m_alertCompare);
    layout->addWidget(m_alertDismiss);
    m_alertBanner->hide();

    // The buttons act on the alert the banner names (HackingMonitor::headline).
    connect(m_alertRollouts, &QPushButton::clicked, this, [this] {
        if (const eval::HackingAlert *a = m_monitor.headline())
            Q_EMIT rolloutsRequested(a->from, a->to);
    });
    connect(m_alertCompare, &QPushButton::clicked, this, [this] {
        const eval::HackingAlert *headline = m_monitor.headline();
        if (!headline)
            return;
        const eval::HackingAlert &a = *headline;
        const qint64 before = lastEvalAtOrBefore(a.from);
        const qint64 latest = lastEvalAtOrBefore(std::numeric_limits<qint64>::max());
        Q_EMIT checkpointComparisonRequested(before >= 0 ? before : a.from, latest >= 0 ? latest : a.to);
    });
    connect(m_alertDismiss, &QPushButton::clicked, this, [this] {
        m_alertsDismissed = alerts().size();
        m_alertBanner->hide();
    });
}

void CurvePanel::retranslateAlerts()
{
    m_alertSettingsButton->setText(tr("Alert thresholds…"));
    m_alertSettingsButton->setToolTip(tr("When the reward-hacking alert fires: the window, the rise of a reward component, "
                                         "the fall of validation F1 and the collapse thresholds."));
    m_alertRollouts->setText(tr("Show rollouts"));
    m_alertRollouts->setToolTip(tr("Open the rollouts of the alert's steps"));
    m_alertCompare->setText(tr("Compare checkpoints"));
    m_alertCompare->setToolTip(
        tr("Compare, in the failure explorer, the checkpoint evaluated at or before the alert's start with the latest one"));
    m_alertDismiss->setToolTip(tr("Hide until the next alert"));
    updateAlerts();
}

void CurvePanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        // The legends name the runs in words ("run #3"): drawn again (retranslate replots).
        m_structureDirty = true;
        refresh();
        retranslate();
    }
    QWidget::changeEvent(event);
}

QString CurvePanel::runLabel(const Run &run) const
{
    return run.name.isEmpty() ? tr("run #%1").arg(run.id) : tr("%1 #%2").arg(run.name).arg(run.id);
}

void CurvePanel::retranslate()
{
    m_metricsButton->setText(tr("Metrics"));
    m_metricsButton->setToolTip(tr("Show or hide the list of every metric in the store; check one to give it a plot"));
    m_smoothingLabel->setText(tr("Smoothing"));
    m_smoothingSlider->setToolTip(tr("Exponential moving average of each curve (0 = off); the raw points stay visible as dots."));
    m_smoothingSpin->setToolTip(m_smoothingSlider->toolTip());
    m_fitButton->setText(tr("Fit"));
    m_fitButton->setToolTip(tr("Show every point and follow new ones again (double-click a plot to fit that plot only)."));
    m_pngButton->setText(tr("Export PNG…"));
    m_csvButton->setText(tr("Export CSV…"));
    m_pickerTitle->setText(tr("Check a metric to plot it:"));
    m_pickerFilter->setPlaceholderText(tr("Filter metrics"));
    for (int i = 0; i < static_cast<int>(m_plots.size()); ++i) {
        PlotState &ps = m_plots[static_cast<size_t>(i)];
        ps.title->setText(i < PlotCount ? tr(kTitles[i]) : ps.metric);
        ps.plot->xAxis->setLabel(tr("step"));
        ps.plot->yAxis->setLabel(i < PlotCount ? tr(kUnits[i]) : QString());
        ps.empty->setText(i == KlPlot ? tr("No data: KL is logged when β > 0") : tr("No data"));
        ps.plot->replot();
    }
    updateMetricList(); // the notes name the fixed plots
    retranslateAlerts();
}

QString CurvePanel::alertText(const eval::HackingAlert &a)
{
    const QString range = a.from == a.to ? tr("step %1").arg(a.from) : tr("steps %1–%2").arg(a.from).arg(a.to);
    const QString name = a.components.empty() ? QString() : QString::fromStdString(a.components.front());
    switch (a.kind) {
    case eval::AlertKind::Hacking:
        if (a.validationMetric.empty() || a.validationMetric == "eval/f1")
            return tr("Possible reward hacking: %1 rose %2 → %3 while validation F1 fell %4 → %5 (%6)")
                .arg(name, fixed2(a.before), fixed2(a.after), fixed2(a.otherBefore), fixed2(a.otherAfter), range);
        return tr("Possible reward hacking: %1 rose %2 → %3 while validation %4 fell %5 → %6 (%7)")
            .arg(name, fixed2(a.before), fixed2(a.after), QString::fromStdString(a.validationMetric.substr(5)),
                 fixed2(a.otherBefore), fixed2(a.otherAfter), range);
    case eval::AlertKind::Disagreement:
        return tr("Possible reward hacking: %1 rose %2 → %3 while %4 fell %5 → %6 (%7; no validation metrics)")
            .arg(name, fixed2(a.before), fixed2(a.after), QString::fromStdString(a.components.back()), fixed2(a.otherBefore),
                 fixed2(a.otherAfter), range);
    case eval::AlertKind::Collapse: {
        const QString value = a.from == a.to ? fixed2(a.after) : tr("%1 → %2").arg(fixed2(a.before), fixed2(a.after));
        if (a.metric == "completions/distinct_answers_per_group")
            return tr("Completions collapsing: %1 distinct answers per group (threshold ≤ %2; %3)")
                .arg(value, fixed2(a.threshold), range);
        return tr("Completions collapsing: the most common answer is a share %1 of the completions (threshold > %2; %3)")
            .arg(value, fixed2(a.threshold), range);
    }
    }
    return {};
}

QString CurvePanel::alertBannerText() const
{
    return m_alertLabel->text();
}

void CurvePanel::setAlertSettings(const eval::HackingSettings &settings)
{
    eval::HackingSettings s = settings;
    s.validationMetrics = validationMetrics(); // not a user's setting: the tasks' headlines
    m_monitor.setSettings(s);
    m_alertsDismissed = 0;
    updateAlerts();
}

void CurvePanel::rejudgePrimary()
{
    // The tasks' headlines as they are now: a user's task installed since the panel was
    // made (its config read, a run of it opened) brings its own.
    if (eval::HackingSettings s = m_monitor.settings(); s.validationMetrics != validationMetrics()) {
        s.validationMetrics = validationMetrics();
        m_monitor.setSettings(s);
    }
    m_monitor.reset();
    m_alertsDismissed = 0;
    if (m_primary) {
        std::map<int64_t, std::vector<std::pair<std::string, double>>> bySteps;
        for (const auto &[name, series] : m_primary->series) {
            const std::string key = name.toStdString();
            for (int k = 0; k < series.size(); ++k)
                bySteps[series.steps()[static_cast<size_t>(k)]].emplace_back(key, series.values()[static_cast<size_t>(k)]);
        }
        for (const auto &[step, metrics] : bySteps)
            m_monitor.update(step, metrics);
    }
    updateAlerts();
}

qint64 CurvePanel::lastEvalAtOrBefore(qint64 step) const
{
    if (!m_primary)
        return -1;
    auto it = m_primary->series.end();
    for (const std::string &name : validationMetrics())
        if (it == m_primary->series.end())
            it = m_primary->series.find(QString::fromStdString(name));
    if (it == m_primary->series.end())
        return -1;
    const std::vector<int64_t> &steps = it->second.steps();
    const auto pos = std::upper_bound(steps.begin(), steps.end(), step);
    return pos == steps.begin() ? -1 : *std::prev(pos);
}

void CurvePanel::updateAlerts()
{
    const std::vector<eval::HackingAlert> &all = alerts();
    if (all.empty()) {
        m_alertLabel->clear();
        m_alertLabel->setToolTip(QString());
    } else {
        QString text = alertText(*m_monitor.headline());
        if (all.size() > 1)
            text += QLatin1Char(' ') + tr("(%n other alert(s): see the tooltip)", nullptr, static_cast<int>(all.size() - 1));
        m_alertLabel->setText(text);
        // The latest kTooltipAlerts, so that a long run's tooltip still fits the screen.
        QStringList lines;
        if (all.size() > kTooltipAlerts)
            lines << QStringLiteral("…");
        for (size_t k = all.size() > kTooltipAlerts ? all.size() - kTooltipAlerts : 0; k < all.size(); ++k)
            lines << alertText(all[k]);
        m_alertLabel->setToolTip(lines.join(QLatin1Char('\n')));
    }
    m_alertBanner->setVisible(all.size() > m_alertsDismissed);

    // Each alert's steps shaded, from half a step before its first to half a step after
    // its last, behind the grid and the curves.
    for (const int i : {RewardPlot, ComponentsPlot}) {
        PlotState &ps = m_plots[i];
        for (QCPAbstractItem *item : ps.alertItems)
            ps.plot->removeItem(item);
        ps.alertItems.clear();
        for (const eval::HackingAlert &a : all) {
            auto *rect = new QCPItemRect(ps.plot);
            rect->setLayer(QStringLiteral("background"));
            for (QCPItemPosition *p : {rect->topLeft, rect->bottomRight}) {
                p->setTypeX(QCPItemPosition::ptPlotCoords);
                p->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
            rect->topLeft->setCoords(static_cast<double>(a.from) - 0.5, 0.0);
            rect->bottomRight->setCoords(static_cast<double>(a.to) + 0.5, 1.0);
            rect->setPen(Qt::NoPen);
            rect->setBrush(kAlertShade);
            ps.alertItems.push_back(rect);
        }
    }
    scheduleRedraw();
    Q_EMIT alertsChanged();
}

void CurvePanel::editAlertSettings()
{
    const eval::HackingSettings current = alertSettings();
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Reward-hacking alert"));
    auto *form = new QFormLayout(&dialog);
    auto *window = new QSpinBox(&dialog);
    window->setRange(2, 100000);
    window->setValue(current.window);
    window->setSuffix(tr(" steps"));
    auto decimal = [&](double value, double max) {
        auto *spin = new QDoubleSpinBox(&dialog);
        spin->setDecimals(3);
        spin->setSingleStep(0.01);
        spin->setRange(0.0, max);
        spin->setValue(value);
        return spin;
    };
    QDoubleSpinBox *rise = decimal(current.riseThreshold, 1000.0);
    QDoubleSpinBox *f1 = decimal(current.f1DropThreshold, 1.0);
    QDoubleSpinBox *fall = decimal(current.fallThreshold, 1000.0);
    QDoubleSpinBox *distinct = decimal(current.minDistinctAnswers, 1000.0);
    QDoubleSpinBox *share = decimal(current.maxTopAnswerShare, 1.0);
    rise->setToolTip(tr("Mean over the window's second half minus the mean over its first half"));
    form->addRow(tr("Window:"), window);
    form->addRow(tr("A component rises by more than:"), rise);
    form->addRow(tr("Validation F1 falls by more than:"), f1);
    form->addRow(tr("Without F1, another component falls by more than:"), fall);
    form->addRow(tr("Collapse: distinct answers per group at most:"), distinct);
    form->addRow(tr("Collapse: share of the most common answer above:"), share);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults,
                                         &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, &dialog, [=] {
        const eval::HackingSettings d;
        window->setValue(d.window);
        rise->setValue(d.riseThreshold);
        f1->setValue(d.f1DropThreshold);
        fall->setValue(d.fallThreshold);
        distinct->setValue(d.minDistinctAnswers);
        share->setValue(d.maxTopAnswerShare);
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    eval::HackingSettings edited;
    edited.window = window->value();
    edited.riseThreshold = rise->value();
    edited.f1DropThreshold = f1->value();
    edited.fallThreshold = fall->value();
    edited.minDistinctAnswers = distinct->value();
    edited.maxTopAnswerShare = share->value();
    setAlertSettings(edited);
    Q_EMIT alertSettingsEdited(edited);
}

void CurvePanel::setupPlot(int i, const QString &metric)
{
    m_plots.insert(m_plots.begin() + i, PlotState{});
    PlotState &s = m_plots[static_cast<size_t>(i)];
    s.metric = metric;
    auto *p = new QCustomPlot(m_plotArea);
    s.plot = p;
    p->setMinimumSize(240, 130); // four rows of plots fit a 1280 × 800 screen (tst_windowsize)
    p->setAutoAddPlottableToLegend(false);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setNoAntialiasingOnDrag(true);

    QFont small = font();
    small.setPointSizeF(8);
    QFont titleFont = font();
    titleFont.setPointSizeF(9);
    titleFont.setBold(true);
    p->plotLayout()->insertRow(0);
    s.title = new QCPTextElement(p, i < PlotCount ? tr(kTitles[i]) : metric, titleFont);
    p->plotLayout()->addElement(0, 0, s.title);
    p->plotLayout()->setRowSpacing(0);
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setTickLabelFont(small);
        axis->setLabelFont(small);
        axis->setLabelPadding(2);
    }
    p->xAxis->setLabel(tr("step"));
    p->yAxis->setLabel(i < PlotCount ? tr(kUnits[i]) : QString());
    p->legend->setFont(small);
    p->legend->setBrush(QColor(255, 255, 255, 210));
    p->legend->setBorderPen(QPen(QColor(180, 180, 180)));
    p->legend->setRowSpacing(0); // less and the underscores of metric names are cut
    p->legend->setIconSize(16, 8);
    p->legend->setMargins(QMargins(4, 2, 4, 2));
    // Below the plot, in columns (never over the curves); placeLegend() adds it when it
    // names more than one curve.
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    p->legend->setWrap(3);
    placeLegend(s, false);

    s.empty = new QCPItemText(p);
    s.empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    s.empty->position->setCoords(0.5, 0.5);
    s.empty->setPositionAlignment(Qt::AlignCenter);
    s.empty->setFont(small);
    s.empty->setColor(QColor(120, 120, 120));
    s.empty->setText(i == KlPlot ? tr("No data: KL is logged when β > 0") : tr("No data"));

    s.cursor = new QCPItemStraightLine(p);
    s.cursor->setPen(QPen(QColor(40, 40, 40), 1));
    s.cursor->setVisible(false);

    // By the plot, not its index: picked plots come and go.
    connect(p->xAxis, QOverload<const QCPRange &>::of(&QCPAxis::rangeChanged), this, [this, p] { onRangeChanged(indexOf(p)); });
    connect(p->yAxis, QOverload<const QCPRange &>::of(&QCPAxis::rangeChanged), this, [this, p] { onRangeChanged(indexOf(p)); });
    connect(p, &QCustomPlot::mousePress, this, [this, p](QMouseEvent *e) {
        if (const int k = indexOf(p); k >= 0)
            m_plots[static_cast<size_t>(k)].pressPos = e->position().toPoint();
    });
    connect(p, &QCustomPlot::mouseRelease, this, [this, p](QMouseEvent *e) {
        if (e->button() == Qt::LeftButton)
            onMouseRelease(indexOf(p), e->position().toPoint());
    });
    connect(p, &QCustomPlot::mouseDoubleClick, this, [this, p](QMouseEvent *) {
        setFollow(indexOf(p), true);
        scheduleRedraw();
    });
}

int CurvePanel::indexOf(const QCustomPlot *p) const
{
    for (size_t k = 0; k < m_plots.size(); ++k)
        if (m_plots[k].plot == p)
            return static_cast<int>(k);
    return -1;
}

void CurvePanel::placeLegend(PlotState &s, bool show)
{
    QCustomPlot *p = s.plot;
    QCPLayoutGrid *layout = p->plotLayout();
    if (!show) {
        if (p->legend->layout())
            p->legend->layout()->take(p->legend);
        layout->simplify();
        p->legend->setVisible(false);
        return;
    }
    if (p->legend->layout() != layout) {
        if (p->legend->layout())
            p->legend->layout()->take(p->legend);
        layout->simplify();
        layout->addElement(layout->rowCount(), 0, p->legend);
        layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
    }
    p->legend->setVisible(true);
}

void CurvePanel::layoutPlots()
{
    for (const PlotState &s : m_plots)
        m_grid->removeWidget(s.plot);
    for (size_t k = 0; k < m_plots.size(); ++k)
        m_grid->addWidget(m_plots[k].plot, static_cast<int>(k) / kColumns, static_cast<int>(k) % kColumns);
    for (int r = 0; r < m_grid->rowCount(); ++r)
        m_grid->setRowStretch(r, r * kColumns < static_cast<int>(m_plots.size()) ? 1 : 0);
}

QCustomPlot *CurvePanel::metricPlot(const QString &metric) const
{
    for (size_t k = PlotCount; k < m_plots.size(); ++k)
        if (m_plots[k].metric == metric)
            return m_plots[k].plot;
    return nullptr;
}

QStringList CurvePanel::pickedMetrics() const
{
    QStringList out;
    for (size_t k = PlotCount; k < m_plots.size(); ++k)
        out << m_plots[k].metric;
    return out;
}

void CurvePanel::setMetricPlotted(const QString &metric, bool plotted)
{
    if (metric.isEmpty() || (metricPlot(metric) != nullptr) == plotted)
        return;
    if (m_metricModel->isChecked(metric) != plotted) {
        m_metricModel->setChecked(metric, plotted); // comes back here through checkedChanged
        return;
    }
    if (plotted) {
        setupPlot(static_cast<int>(m_plots.size()), metric);
        PlotState &s = m_plots.back();
        s.cursor->setVisible(m_cursor >= 0);
        s.cursor->point1->setCoords(static_cast<double>(m_cursor), 0.0);
        s.cursor->point2->setCoords(static_cast<double>(m_cursor), 1.0);
        // The new plot comes into view once the grid has laid it out.
        QTimer::singleShot(0, this, [this, p = QPointer<QCustomPlot>(s.plot)] {
            if (p)
                m_scroll->ensureWidgetVisible(p, 0, 0);
        });
    } else {
        const int k = indexOf(metricPlot(metric));
        QCustomPlot *gone = m_plots[static_cast<size_t>(k)].plot;
        m_plots.erase(m_plots.begin() + k);
        for (Run *run : runs())
            run->picked.erase(metric);
        m_grid->removeWidget(gone);
        delete gone;
    }
    layoutPlots();
    m_structureDirty = true;
    refresh();
    scheduleRedraw();
}

void CurvePanel::updateMetricList()
{
    m_metricsDirty = false;
    QStringList names;
    QHash<QString, QString> notes;
    for (const Run *run : runs()) {
        for (const auto &entry : run->series) {
            const QString &name = entry.first;
            names << name;
            const int fixed = plotOf(name == kRewardStd ? QStringLiteral("reward") : name);
            if (fixed >= 0 && !notes.contains(name))
                notes.insert(name, tr("Also on the plot “%1”").arg(tr(kTitles[fixed])));
        }
    }
    m_metricModel->setMetrics(names);
    m_metricModel->setNotes(notes);
}

QCustomPlot *CurvePanel::plot(int i) const
{
    return i >= 0 && i < plotCount() ? m_plots[static_cast<size_t>(i)].plot : nullptr;
}

bool CurvePanel::isFollowing(int i) const
{
    return i >= 0 && i < plotCount() && m_plots[static_cast<size_t>(i)].follow;
}

int CurvePanel::overlayCount() const
{
    return static_cast<int>(m_overlays.size());
}

std::vector<CurvePanel::Run *> CurvePanel::runs() const
{
    std::vector<Run *> all;
    if (m_primary)
        all.push_back(m_primary.get());
    for (const auto &o : m_overlays)
        all.push_back(o.get());
    return all;
}

std::unique_ptr<CurvePanel::Run> CurvePanel::loadRun(const RunSession &session, QString *error) const
{
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return nullptr;
    };
    const QString storePath = session.storePath();
    const qint64 runId = session.runId();
    auto run = std::make_unique<Run>();
    try {
        const store::RunStore &st = session.store();
        const store::RunInfo info = st.run(runId);
        run->id = runId;
        run->storePath = storePath;
        run->name = QString::fromStdString(info.name);
        for (const store::MetricPoint &m : st.metrics(runId))
            if (std::isfinite(m.value))
                run->series[QString::fromStdString(m.name)].set(m.step, m.value);
        const std::vector<store::RewardConfigVersion> versions = st.rewardConfigs(runId);
        // The first version is the config the run started with; later ones are changes.
        for (size_t v = 0; v < versions.size(); ++v) {
            const StoredRewardConfig config = readStoredRewardConfig(versions[v].configJson);
            if (v > 0)
                run->markers.push_back({versions[v].step, markerLabel(config.weights, config.names)});
            run->componentNames = config.names; // the last version's label live weight changes
        }
    } catch (const std::exception &e) {
        return fail(tr("Cannot show run %1 of %2: %3").arg(runId).arg(storePath, QString::fromUtf8(e.what())));
    }
    return run;
}

bool CurvePanel::setSession(RunSession *session, QString *error)
{
    // A run that does not load leaves the panel, and what it follows, as they were.
    std::unique_ptr<Run> run = session ? loadRun(*session, error) : nullptr;
    if (session && !run)
        return false;
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = nullptr;
    if (!session) {
        m_primary.reset();
        m_structureDirty = true;
        rejudgePrimary();
        refresh();
        updateMetricList();
        return true;
    }
    m_session = session;
    connect(session, &RunSession::stepAdded, this, &CurvePanel::appendStep);
    m_primary = std::move(run);
    m_structureDirty = true;
    rejudgePrimary();
    fit();
    refresh();
    updateMetricList();
    return true;
}

bool CurvePanel::addOverlay(const RunSession &session, QString *error)
{
    for (const Run *run : runs())
        if (run->id == session.runId() && QFileInfo(run->storePath) == QFileInfo(session.storePath()))
            return true; // already shown
    std::unique_ptr<Run> run = loadRun(session, error);
    if (!run)
        return false;
    m_overlays.push_back(std::move(run));
    m_structureDirty = true;
    fit();
    refresh();
    updateMetricList();
    return true;
}

void CurvePanel::clearOverlays()
{
    m_overlays.clear();
    m_structureDirty = true;
    refresh();
    updateMetricList();
    scheduleRedraw();
}

void CurvePanel::clear()
{
    m_primary.reset();
    m_overlays.clear();
    rejudgePrimary();
    m_structureDirty = true;
    refresh();
    updateMetricList();
    fit();
}

void CurvePanel::appendStep(const TrainingStep &step)
{
    if (!m_primary) {
        m_primary = std::make_unique<Run>();
        m_primary->id = step.runId;
        // Its name comes with the store, which a live run shown alone has not.
        m_structureDirty = true;
        rejudgePrimary();
    } else if (step.runId != m_primary->id) {
        return;
    }
    Run &run = *m_primary;
    std::vector<std::pair<std::string, double>> watched;
    watched.reserve(static_cast<size_t>(step.metrics.size()));
    for (const auto &[name, value] : step.metrics)
        watched.emplace_back(name.toStdString(), value);
    if (m_monitor.update(step.step, watched))
        updateAlerts();
    for (const auto &[name, value] : step.metrics) {
        if (!std::isfinite(value))
            continue;
        auto it = run.series.find(name);
        const bool isNew = it == run.series.end();
        run.series[name].set(step.step, value);
        if (isNew)
            m_metricsDirty = true; // the picker lists it at the next redraw
        auto markDirty = [&run](const QString &metric) {
            if (std::find(run.dirty.begin(), run.dirty.end(), metric) == run.dirty.end())
                run.dirty.push_back(metric);
        };
        const QString graphed = name == kRewardStd ? QStringLiteral("reward") : name;
        if (plotOf(graphed) >= 0) {
            if (isNew || run.graphs.find(graphed) == run.graphs.end())
                m_structureDirty = true;
            else
                markDirty(graphed);
        }
        if (metricPlot(name)) {
            if (run.picked.find(name) == run.picked.end())
                m_structureDirty = true;
            else
                markDirty(name);
        }
    }
    scheduleRedraw();
}

void CurvePanel::markWeightChange(qint64 step, const QVector<double> &weights)
{
    if (!m_primary)
        return;
    const QString label = markerLabel(weights, m_primary->componentNames);
    auto &markers = m_primary->markers;
    auto it = std::find_if(markers.begin(), markers.end(), [step](const Marker &m) { return m.step == step; });
    if (it != markers.end())
        it->label = label;
    else
        markers.push_back({step, label});
    m_structureDirty = true;
    scheduleRedraw();
}

QString CurvePanel::markerLabel(const QVector<double> &weights, const QStringList &names) const
{
    // Short, so that it fits upright in a small plot: "partial 50 · marker 50", or
    // "weights 50 / 50" when the components' names are not known.
    QStringList parts;
    for (const double w : weights)
        parts << QString::number(w, 'g', 4);
    if (names.size() != weights.size())
        return tr("weights %1").arg(parts.join(QLatin1String(" / ")));
    for (int k = 0; k < parts.size(); ++k)
        parts[k] = tr("%1 %2").arg(names[k], parts[k]);
    return parts.join(QStringLiteral(" · "));
}

void CurvePanel::setStepCursor(qint64 step)
{
    if (step == m_cursor)
        return;
    m_cursor = step;
    for (PlotState &s : m_plots) {
        s.cursor->setVisible(step >= 0);
        s.cursor->point1->setCoords(static_cast<double>(step), 0.0);
        s.cursor->point2->setCoords(static_cast<double>(step), 1.0);
    }
    scheduleRedraw();
    Q_EMIT stepCursorChanged(step);
}

void CurvePanel::setSmoothing(double weight)
{
    const double w = std::clamp(std::round(weight * 100.0) / 100.0, 0.0, kSliderSteps / 100.0);
    if (w == m_smoothing)
        return;
    m_smoothing = w;
    {
        const QSignalBlocker b1(m_smoothingSlider);
        const QSignalBlocker b2(m_smoothingSpin);
        m_smoothingSlider->setValue(qRound(w * 100.0));
        m_smoothingSpin->setValue(w);
    }
    for (Run *run : runs()) {
        run->dirty.clear();
        for (const auto &g : run->graphs)
            run->dirty.push_back(g.first);
        for (const auto &g : run->picked)
            run->dirty.push_back(g.first);
    }
    refresh();
    scheduleRedraw();
}

void CurvePanel::fit()
{
    for (int i = 0; i < plotCount(); ++i)
        setFollow(i, true);
    scheduleRedraw();
}

void CurvePanel::setFollow(int i, bool follow)
{
    if (i >= 0 && i < plotCount())
        m_plots[static_cast<size_t>(i)].follow = follow;
}

void CurvePanel::onRangeChanged(int i)
{
    if (!m_autoRanging)
        setFollow(i, false);
}

void CurvePanel::onMouseRelease(int i, const QPoint &pos)
{
    if (i < 0 || i >= plotCount())
        return;
    QCustomPlot *p = m_plots[i].plot;
    if ((pos - m_plots[i].pressPos).manhattanLength() > kClickSlop || !p->axisRect()->rect().contains(pos))
        return;
    setStepCursor(std::max<qint64>(0, qRound64(p->xAxis->pixelToCoord(pos.x()))));
}

void CurvePanel::scheduleRedraw()
{
    if (!m_redrawTimer.isActive())
        m_redrawTimer.start();
}

void CurvePanel::rebuildGraphs()
{
    for (PlotState &s : m_plots) {
        s.plot->clearGraphs();
        for (QCPAbstractItem *item : s.markerItems)
            s.plot->removeItem(item);
        s.markerItems.clear();
    }
    const std::vector<Run *> all = runs();
    const bool overlaid = all.size() > 1;
    for (size_t r = 0; r < all.size(); ++r) {
        Run &run = *all[r];
        run.graphs.clear();
        run.picked.clear();
        run.dirty.clear();
        const QColor runColour = colour(static_cast<int>(r));
        int seriesInPlot[PlotCount] = {};
        for (const auto &[name, series] : run.series) {
            QString label;
            const int i = plotOf(name, &label);
            if (i < 0)
                continue;
            QCustomPlot *p = m_plots[i].plot;
            const bool multi = multiSeries(i);
            const QColor c = multi ? colour(seriesInPlot[i]++) : runColour;
            QPen line(c, 1.6);
            if (multi)
                line.setStyle(kRunStyles[r % (sizeof(kRunStyles) / sizeof(kRunStyles[0]))]);
            Graphs g;
            if (i == RewardPlot) {
                QColor fill = c;
                fill.setAlpha(overlaid ? 35 : 50);
                g.bandLow = p->addGraph();
                g.bandHigh = p->addGraph();
                for (QCPGraph *b : {g.bandLow, g.bandHigh})
                    b->setPen(Qt::NoPen);
                g.bandHigh->setBrush(fill);
                g.bandHigh->setChannelFillGraph(g.bandLow);
            }
            g.raw = p->addGraph();
            QColor dots = c;
            dots.setAlpha(110);
            g.raw->setLineStyle(QCPGraph::lsNone);
            g.raw->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, dots, dots, i == F1Plot ? 5 : 3));
            g.smooth = p->addGraph();
            g.smooth->setPen(line);
            QString legend = multi ? label : runLabel(run);
            if (multi && overlaid)
                legend = tr("%1 · %2").arg(runLabel(run), label);
            g.smooth->setName(legend);
            g.smooth->addToLegend();
            run.graphs[name] = g;
            updateGraphs(run, name);
        }
        // The picked metrics, each on its own plot: one curve per run, in the run's colour.
        for (size_t k = PlotCount; k < m_plots.size(); ++k) {
            const QString &metric = m_plots[k].metric;
            if (run.series.find(metric) == run.series.end())
                continue;
            QCustomPlot *p = m_plots[k].plot;
            Graphs g;
            g.raw = p->addGraph();
            QColor dots = runColour;
            dots.setAlpha(110);
            g.raw->setLineStyle(QCPGraph::lsNone);
            g.raw->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, dots, dots, 3));
            g.smooth = p->addGraph();
            g.smooth->setPen(QPen(runColour, 1.6));
            g.smooth->setName(runLabel(run));
            g.smooth->addToLegend();
            run.picked[metric] = g;
            updateGraphs(run, metric);
        }
        // Weight changes: a dashed line on every plot, the weights written on the Reward plot.
        for (const Marker &m : run.markers) {
            for (size_t i = 0; i < m_plots.size(); ++i) {
                PlotState &s = m_plots[i];
                QColor c = runColour;
                c.setAlpha(190);
                auto *line = new QCPItemStraightLine(s.plot);
                line->setPen(QPen(c, 1, Qt::DashLine));
                line->point1->setCoords(static_cast<double>(m.step), 0.0);
                line->point2->setCoords(static_cast<double>(m.step), 1.0);
                s.markerItems.push_back(line);
                if (i != RewardPlot)
                    continue;
                auto *text = new QCPItemText(s.plot);
                text->position->setTypeX(QCPItemPosition::ptPlotCoords);
                text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
                text->position->setCoords(static_cast<double>(m.step), 1.0);
                // Anchored at the foot of the line and turned upright: reads upwards, right of the line.
                text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
                text->setRotation(-90);
                text->setPadding(QMargins(4, 2, 0, 0));
                QFont f = font();
                f.setPointSizeF(7);
                text->setFont(f);
                text->setColor(runColour.darker(130));
                text->setBrush(QColor(255, 255, 255, 200)); // readable over the band and dots
                text->setText(m.label);
                s.markerItems.push_back(text);
            }
        }
    }
    for (PlotState &s : m_plots)
        placeLegend(s, s.plot->legend->itemCount() > 1);
    m_structureDirty = false;
}

void CurvePanel::updateGraphs(Run &run, const QString &metric)
{
    const auto sit = run.series.find(metric);
    if (sit == run.series.end())
        return;
    const CurveSeries &series = sit->second;
    // `sparse`: evaluations are few and far apart (every eval_every steps): an average
    // over them would lag by whole evaluations, so they are drawn unsmoothed.
    const auto fill = [&](const Graphs &g, bool sparse) {
        const std::vector<double> smooth = eval::emaSmooth(series.values(), sparse ? 0.0 : m_smoothing);
        QVector<QCPGraphData> raw(series.size()), sm(series.size());
        for (int k = 0; k < series.size(); ++k) {
            const double x = static_cast<double>(series.steps()[static_cast<size_t>(k)]);
            raw[k] = QCPGraphData(x, series.values()[static_cast<size_t>(k)]);
            sm[k] = QCPGraphData(x, smooth[static_cast<size_t>(k)]);
        }
        g.raw->data()->set(raw, /*alreadySorted=*/true);
        g.smooth->data()->set(sm, /*alreadySorted=*/true);
        if (!g.bandLow)
            return;
        const auto stdIt = run.series.find(kRewardStd);
        QVector<QCPGraphData> low, high;
        if (stdIt != run.series.end()) {
            for (int k = 0; k < series.size(); ++k) {
                const int64_t step = series.steps()[static_cast<size_t>(k)];
                const double sd = stdIt->second.valueAt(step);
                if (!std::isfinite(sd))
                    continue;
                const double mean = series.values()[static_cast<size_t>(k)];
                low.push_back(QCPGraphData(static_cast<double>(step), mean - sd));
                high.push_back(QCPGraphData(static_cast<double>(step), mean + sd));
            }
        }
        g.bandLow->data()->set(low, /*alreadySorted=*/true);
        g.bandHigh->data()->set(high, /*alreadySorted=*/true);
    };
    if (const auto git = run.graphs.find(metric); git != run.graphs.end())
        fill(git->second, plotOf(metric) == F1Plot);
    if (const auto pit = run.picked.find(metric); pit != run.picked.end())
        fill(pit->second, metric.startsWith(QLatin1String("eval/")));
}

void CurvePanel::refresh()
{
    if (m_structureDirty) {
        rebuildGraphs();
    } else {
        for (Run *run : runs()) {
            for (const QString &metric : run->dirty)
                updateGraphs(*run, metric);
            run->dirty.clear();
        }
    }
    for (PlotState &s : m_plots) {
        bool hasData = false;
        for (int k = 0; k < s.plot->graphCount() && !hasData; ++k)
            hasData = !s.plot->graph(k)->data()->isEmpty();
        s.empty->setVisible(!hasData);
    }
}

void CurvePanel::autoRange(int i)
{
    QCustomPlot *p = m_plots[i].plot;
    QCPRange keys, values;
    bool anyKeys = false, anyValues = false;
    for (int k = 0; k < p->graphCount(); ++k) {
        bool found = false;
        const QCPRange kr = p->graph(k)->getKeyRange(found);
        if (found) {
            keys = anyKeys ? QCPRange(std::min(keys.lower, kr.lower), std::max(keys.upper, kr.upper)) : kr;
            anyKeys = true;
        }
        const QCPRange vr = p->graph(k)->getValueRange(found);
        if (found) {
            values = anyValues ? QCPRange(std::min(values.lower, vr.lower), std::max(values.upper, vr.upper)) : vr;
            anyValues = true;
        }
    }
    if (!anyKeys)
        return;
    if (keys.size() < 1.0)
        keys = QCPRange(keys.lower - 1.0, keys.upper + 1.0);
    else
        keys = QCPRange(keys.lower - 0.02 * keys.size(), keys.upper + 0.02 * keys.size());
    if (values.size() < 1e-12) {
        const double pad = std::max(0.05, std::abs(values.center()) * 0.1);
        values = QCPRange(values.lower - pad, values.upper + pad);
    } else {
        values = QCPRange(values.lower - 0.08 * values.size(), values.upper + 0.08 * values.size());
    }
    m_autoRanging = true;
    p->xAxis->setRange(keys);
    p->yAxis->setRange(values);
    m_autoRanging = false;
}

void CurvePanel::redraw()
{
    refresh();
    if (m_metricsDirty)
        updateMetricList();
    for (int i = 0; i < plotCount(); ++i) {
        if (m_plots[i].follow)
            autoRange(i);
        m_plots[i].plot->replot();
    }
}

bool CurvePanel::exportPng(const QString &path, QString *error) const
{
    // Bring the graphs and the followed ranges up to date first: the export must show
    // every point received, even those waiting for the next redraw tick.
    auto *self = const_cast<CurvePanel *>(this);
    self->refresh();
    for (int i = 0; i < plotCount(); ++i)
        if (m_plots[i].follow)
            self->autoRange(i);
    const int rows = (plotCount() + kColumns - 1) / kColumns;
    QImage image(kColumns * kExportWidth, rows * kExportHeight, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        for (int i = 0; i < plotCount(); ++i) {
            const QPixmap pm = m_plots[i].plot->toPixmap(kExportWidth, kExportHeight);
            painter.drawPixmap((i % kColumns) * kExportWidth, (i / kColumns) * kExportHeight, pm);
        }
    }
    if (!image.save(path, "PNG")) {
        if (error)
            *error = tr("Cannot write the image %1.").arg(path);
        return false;
    }
    return true;
}

bool CurvePanel::exportCsv(const QString &path, QString *error) const
{
    struct Column {
        const CurveSeries *series;
        QString header;
    };
    std::vector<Column> columns;
    std::set<int64_t> steps;
    for (const Run *run : runs()) {
        for (const auto &[name, series] : run->series) {
            columns.push_back({&series, runLabel(*run) + QLatin1Char(':') + name});
            steps.insert(series.steps().begin(), series.steps().end());
        }
    }
    QString text = QStringLiteral("step");
    for (const Column &c : columns)
        text += QLatin1Char(',') + csvField(c.header);
    text += QLatin1Char('\n');
    for (const int64_t step : steps) {
        text += QString::number(step);
        for (const Column &c : columns) {
            text += QLatin1Char(',');
            const double v = c.series->valueAt(step);
            if (!std::isnan(v))
                text += shortest(v);
        }
        text += QLatin1Char('\n');
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace rwb::widgets
