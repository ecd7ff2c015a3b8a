#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QMap>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <functional>

class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QVBoxLayout;

namespace rwb::widgets {

class JobRunner;

// The Jobs dock: the job a JobRunner runs now (or ran last), followed. Its title and
// command line; a progress bar with the share done, the count and the time left (the
// command's own estimate where it gives one, else the elapsed time scaled by what is
// left); Cancel; the curves of the metrics its progress lines carry (PRM training's loss
// and held-out accuracy per label source, GRPO's reward, …: one line each, over the
// progress count); its warnings; and when it ends, its result, a table of the result's
// keys (nested keys joined with "/") and, when the job's kind has one, its own view of
// it (setResultView). GUI thread only.
class JobView : public QWidget {
    Q_OBJECT
public:
    explicit JobView(JobRunner *runner, QWidget *parent = nullptr);

    // Plots the metrics whose names start with one of `prefixes` (all when empty) under
    // `title` for the next job only; called before it starts. An empty title, or a job
    // started without it: no curves.
    void setCurves(const QString &title, const QStringList &prefixes = {});
    // How a progress line reads in the dock (none: its "detail"); for the next job only.
    void setDescriber(std::function<QString(const QJsonObject &)> describe) { m_describe = std::move(describe); }
    // The next start is the same job's next command: its log and clock go on.
    void continueJob() { m_continuing = true; }
    // A view of the finished job's result, under the table (the view takes `view`).
    void setResultView(QWidget *view);

    // For tests and the status bar.
    QString statusText() const;
    QStringList seriesNames() const { return m_points.keys(); }
    // The points of a metric: (progress count, value).
    QVector<QPointF> series(const QString &name) const { return m_points.value(name); }
    // The result table as "key = value" lines.
    QStringList resultLines() const;
    QWidget *resultView() const { return m_resultView; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void onStarted(const QString &title);
    void onProgress(const QJsonObject &progress);
    void onPlainProgress(qint64 done, qint64 total, const QString &detail);
    void onFinished(bool ok, const QString &message);
    void showProgress(qint64 done, qint64 total, const QString &detail, double etaSeconds);
    void replot();
    void retranslate();

    JobRunner *m_runner;
    QLabel *m_title;
    QLabel *m_command;
    QProgressBar *m_bar;
    QLabel *m_status;
    QPushButton *m_cancel;
    QCustomPlot *m_plot;
    QPlainTextEdit *m_log;
    QTableWidget *m_result;
    QVBoxLayout *m_resultBox;
    QPointer<QWidget> m_resultView;
    QLabel *m_idle;
    QString m_curvesTitle; // asked for the next job
    QString m_plotTitle;   // the job shown's
    QStringList m_prefixes;
    QMap<QString, QVector<QPointF>> m_points;
    QElapsedTimer m_clock;
    bool m_commandProgress = false; // the job sends JSON progress (plain progress() is its echo)
    qint64 m_done = 0, m_total = 0;
    QString m_detail;
    double m_eta = -1;
    bool m_running = false;
    std::function<QString(const QJsonObject &)> m_describe;
    bool m_continuing = false;
    bool m_cancelAsked = false; // Cancel was pressed once: the next press kills
    bool m_ok = false;
    QString m_message;
};

} // namespace rwb::widgets
