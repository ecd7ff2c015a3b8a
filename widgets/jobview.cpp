#include "jobview.h"

#include "curveqcp.h"
#include "jobrunner.h"

#include "util/duration.h"

#include <QEvent>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace rwb::widgets {

namespace {

// The result's keys as rows: nested objects' keys joined with "/", short arrays of
// numbers or texts joined with ", ".
void flatten(const QString &prefix, const QJsonValue &v, QList<QPair<QString, QString>> &rows)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flatten(prefix.isEmpty() ? it.key() : prefix + QLatin1Char('/') + it.key(), it.value(), rows);
        return;
    }
    QString text;
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        QStringList parts;
        bool scalar = a.size() <= 8;
        for (const QJsonValue &e : a) {
            if (e.isObject() || e.isArray()) {
                scalar = false;
                break;
            }
            parts << (e.isDouble() ? QString::number(e.toDouble(), 'g', 5) : e.toVariant().toString());
        }
        text = scalar ? parts.join(QStringLiteral(", ")) : JobView::tr("%n item(s)", nullptr, static_cast<int>(a.size()));
    } else if (v.isDouble()) {
        const double d = v.toDouble();
        text = d == std::floor(d) && std::abs(d) < 1e15 ? QString::number(static_cast<qint64>(d)) : QString::number(d, 'g', 5);
    } else if (v.isBool()) {
        text = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    } else if (v.isNull()) {
        text = QStringLiteral("—");
    } else {
        text = v.toString();
    }
    rows.append({prefix, text});
}

QString duration(double seconds)
{
    return QString::fromStdString(util::formatDuration(seconds));
}

} // namespace

JobView::JobView(JobRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_title(new QLabel(this))
    , m_command(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_cancel(new QPushButton(this))
    , m_plot(new QCustomPlot(this))
    , m_log(new QPlainTextEdit(this))
    , m_result(new QTableWidget(0, 2, this))
    , m_resultBox(new QVBoxLayout)
    , m_idle(new QLabel(this))
{
    setObjectName(QStringLiteral("jobView"));
    auto *layout = new QVBoxLayout(this);
    m_idle->setWordWrap(true);
    layout->addWidget(m_idle);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_command->setObjectName(QStringLiteral("jobCommandLine"));
    m_command->setWordWrap(true);
    m_command->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_command);
    auto *row = new QHBoxLayout;
    m_bar->setObjectName(QStringLiteral("jobViewProgress"));
    row->addWidget(m_bar, 1);
    m_cancel->setObjectName(QStringLiteral("jobViewCancel"));
    row->addWidget(m_cancel);
    layout->addLayout(row);
    m_status->setObjectName(QStringLiteral("jobViewStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_plot->setMinimumHeight(160);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend); // the legend under the plot, never over a curve
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(2);
    split->addWidget(m_plot);
    auto *lower = new QWidget(split);
    lower->setLayout(m_resultBox);
    m_resultBox->setContentsMargins(0, 0, 0, 0);
    m_result->setObjectName(QStringLiteral("jobResult"));
    m_result->horizontalHeader()->setStretchLastSection(true);
    m_result->verticalHeader()->hide();
    m_result->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_resultBox->addWidget(m_result, 1);
    split->addWidget(lower);
    m_log->setObjectName(QStringLiteral("jobLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    split->addWidget(m_log);
    // The curves first; the result, then the warnings, below.
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    layout->addWidget(split, 1);

    connect(m_cancel, &QPushButton::clicked, this, [this] {
        // The first asks the command to stop at its next step; the second stops it at once.
        m_cancelAsked = m_running;
        m_runner->cancel();
        retranslate();
    });
    connect(m_runner, &JobRunner::started, this, &JobView::onStarted);
    connect(m_runner, &JobRunner::progressData, this, &JobView::onProgress);
    connect(m_runner, &JobRunner::progress, this, &JobView::onPlainProgress);
    connect(m_runner, &JobRunner::finished, this, &JobView::onFinished);
    connect(m_runner, &JobRunner::logLine, m_log, &QPlainTextEdit::appendPlainText);
    for (QWidget *w : {static_cast<QWidget *>(m_title), static_cast<QWidget *>(m_command), static_cast<QWidget *>(m_bar),
                       static_cast<QWidget *>(m_cancel), static_cast<QWidget *>(m_status), static_cast<QWidget *>(split)})
        w->hide();
    retranslate();
}

void JobView::setCurves(const QString &title, const QStringList &prefixes)
{
    m_curvesTitle = title;
    m_prefixes = prefixes;
}

void JobView::setResultView(QWidget *view)
{
    delete m_resultView;
    m_resultView = view;
    if (view)
        m_resultBox->addWidget(view, 3);
}

void JobView::onStarted(const QString &title)
{
    m_running = true;
    m_cancelAsked = false;
    retranslate();
    m_commandProgress = false;
    m_done = m_total = 0;
    m_eta = -1;
    m_detail.clear();
    m_message.clear();
    m_points.clear();
    // A job's next command (pairs, then their judge) goes on in the same clock and log.
    if (!std::exchange(m_continuing, false)) {
        m_clock.start();
        m_log->clear();
    }
    delete m_resultView;
    m_result->setRowCount(0);
    m_idle->hide();
    m_title->setText(title);
    m_command->setText(m_runner->commandLine());
    m_command->setVisible(!m_runner->commandLine().isEmpty());
    m_bar->setRange(0, 0);
    for (QWidget *w : {static_cast<QWidget *>(m_title), static_cast<QWidget *>(m_bar), static_cast<QWidget *>(m_cancel),
                       static_cast<QWidget *>(m_status), m_plot->parentWidget()})
        w->show();
    m_plotTitle = m_curvesTitle;
    m_plot->setVisible(!m_plotTitle.isEmpty());
    m_cancel->setEnabled(true);
    m_plot->clearGraphs();
    m_plot->replot();
    showProgress(0, 0, {}, -1);
}

void JobView::onPlainProgress(qint64 done, qint64 total, const QString &detail)
{
    if (!m_commandProgress)
        showProgress(done, total, detail, -1);
}

void JobView::onProgress(const QJsonObject &p)
{
    m_commandProgress = true;
    const qint64 done = p.value(QStringLiteral("done")).toInteger();
    const qint64 total = p.value(QStringLiteral("total")).toInteger();
    const QJsonObject metrics = p.value(QStringLiteral("metrics")).toObject();
    if (!m_curvesTitle.isEmpty() && !metrics.isEmpty()) {
        bool newSeries = false;
        for (auto it = metrics.begin(); it != metrics.end(); ++it) {
            bool wanted = m_prefixes.isEmpty();
            for (const QString &prefix : std::as_const(m_prefixes))
                wanted = wanted || it.key().startsWith(prefix);
            if (!wanted || !it.value().isDouble() || !std::isfinite(it.value().toDouble()))
                continue;
            newSeries = newSeries || !m_points.contains(it.key());
            m_points[it.key()].append(QPointF(static_cast<double>(done), it.value().toDouble()));
            // A series the plot has: its graph (in the map's order) takes the point.
            if (!newSeries)
                if (QCPGraph *g = m_plot->graph(static_cast<int>(std::distance(m_points.begin(), m_points.find(it.key())))))
                    g->addData(static_cast<double>(done), it.value().toDouble());
        }
        // A new series moves the others' colours and legend places: all drawn again.
        if (newSeries) {
            replot();
        } else {
            m_plot->rescaleAxes();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    }
    showProgress(done, total, m_describe ? m_describe(p) : p.value(QStringLiteral("detail")).toString(),
                 p.contains(QStringLiteral("eta_seconds")) ? p.value(QStringLiteral("eta_seconds")).toDouble() : -1.0);
}

void JobView::showProgress(qint64 done, qint64 total, const QString &detail, double etaSeconds)
{
    m_done = done;
    m_total = total;
    m_detail = detail;
    m_eta = etaSeconds;
    if (total > 0 && done > 0 && etaSeconds < 0) {
        // What is left at the pace so far.
        const double elapsed = static_cast<double>(m_clock.elapsed()) / 1000.0;
        m_eta = elapsed * static_cast<double>(total - done) / static_cast<double>(done);
    }
    if (total > 0) {
        const double scale = total > 1000000 ? 1000000.0 / static_cast<double>(total) : 1.0;
        m_bar->setRange(0, static_cast<int>(static_cast<double>(total) * scale));
        m_bar->setValue(static_cast<int>(static_cast<double>(std::min(done, total)) * scale));
    }
    m_status->setText(statusText());
}

QString JobView::statusText() const
{
    if (!m_running) {
        if (m_message.isEmpty())
            return {};
        return m_ok ? tr("Finished in %1.").arg(duration(static_cast<double>(m_clock.elapsed()) / 1000.0))
                    : tr("Ended: %1").arg(m_message);
    }
    QStringList parts;
    if (m_total > 0)
        parts << tr("%1 of %2").arg(m_done).arg(m_total);
    parts << tr("%1 elapsed").arg(duration(static_cast<double>(m_clock.elapsed()) / 1000.0));
    if (m_eta >= 0 && m_done > 0)
        parts << tr("about %1 left").arg(duration(m_eta));
    if (!m_detail.isEmpty())
        parts << m_detail;
    return parts.join(QStringLiteral(" · "));
}

void JobView::replot()
{
    m_plot->clearGraphs();
    static const QColor palette[] = {QColor(0x1f77b4), QColor(0xd62728), QColor(0x2ca02c), QColor(0xff7f0e),
                                     QColor(0x9467bd), QColor(0x8c564b), QColor(0xe377c2), QColor(0x17becf)};
    int i = 0;
    for (auto it = m_points.cbegin(); it != m_points.cend(); ++it, ++i) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(it.key());
        g->setPen(QPen(palette[i % 8], 1.6));
        if (it->size() < 30)
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        QVector<double> x, y;
        for (const QPointF &p : *it) {
            x << p.x();
            y << p.y();
        }
        g->setData(x, y, true);
    }
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(m_plotTitle);
    m_plot->rescaleAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void JobView::onFinished(bool ok, const QString &message)
{
    // The curves and the describer were for this job; the next one says its own.
    m_curvesTitle.clear();
    m_prefixes.clear();
    m_describe = nullptr;
    m_running = false;
    m_cancelAsked = false;
    retranslate();
    m_ok = ok;
    m_message = message;
    m_cancel->setEnabled(false);
    if (ok && m_total > 0)
        m_bar->setValue(m_bar->maximum());
    else if (m_bar->maximum() == 0)
        m_bar->setRange(0, 1);
    m_status->setText(statusText());
    QList<QPair<QString, QString>> rows;
    flatten({}, m_runner->result(), rows);
    m_result->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        m_result->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        m_result->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    m_result->resizeColumnToContents(0);
    if (!ok)
        m_log->appendPlainText(message);
}

QStringList JobView::resultLines() const
{
    QStringList lines;
    for (int r = 0; r < m_result->rowCount(); ++r)
        lines << m_result->item(r, 0)->text() + QStringLiteral(" = ") + m_result->item(r, 1)->text();
    return lines;
}

void JobView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void JobView::retranslate()
{
    m_idle->setText(tr("No job yet. The Jobs menu starts the MCTS search, preference pairs and their judge labels, "
                       "PRM training, PRM-filtered fine-tuning, a judge's evaluation and imports; each is followed here."));
    m_cancel->setText(m_cancelAsked && m_running ? tr("Stop now") : tr("Cancel"));
    m_cancel->setToolTip(m_cancelAsked && m_running
                             ? tr("Stop the job at once, without waiting for its step to end")
                             : tr("Ask the job to stop at its next step, as Ctrl-C would: an MCTS run, PRM training, "
                                  "RFT, GRPO and pair judging keep what they did"));
    m_result->setHorizontalHeaderLabels({tr("Result"), tr("Value")});
    m_status->setText(statusText());
    if (!m_points.isEmpty())
        replot();
}

} // namespace rwb::widgets
