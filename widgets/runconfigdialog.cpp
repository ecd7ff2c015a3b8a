#include "runconfigdialog.h"

#include "store/storetypes.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace rwb::widgets {

namespace {
// The widest a column is made to fit its values (px); longer ones elide (their tooltip
// has the whole value).
constexpr int kMaxColumnWidth = 420;
} // namespace

RunConfigDialog *RunConfigDialog::showRun(QWidget *parent, const store::RunInfo &run)
{
    auto *d = new RunConfigDialog({{runTitle(run), run.configJson}}, parent);
    d->show();
    return d;
}

RunConfigDialog *RunConfigDialog::compareRuns(QWidget *parent, const store::RunInfo &first,
                                              const store::RunInfo &second)
{
    auto *d = new RunConfigDialog({{runTitle(first), first.configJson}, {runTitle(second), second.configJson}}, parent);
    d->show();
    return d;
}

QString RunConfigDialog::runTitle(const store::RunInfo &run)
{
    return QStringLiteral("#%1 %2").arg(run.id).arg(QString::fromStdString(run.name));
}

RunConfigDialog::RunConfigDialog(std::vector<RunConfigDiffModel::Config> configs, QWidget *parent)
    : QDialog(parent)
    , m_model(new RunConfigDiffModel(this))
    , m_summary(new QLabel(this))
    , m_showAll(new QCheckBox(this))
    , m_table(new QTableView(this))
{
    setObjectName(QStringLiteral("runConfigDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_model->setConfigs(std::move(configs));
    m_table->setModel(m_model);
    m_table->setObjectName(QStringLiteral("runConfigTable"));
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_showAll->setObjectName(QStringLiteral("showAllSettings"));
    m_showAll->setVisible(m_model->columnCount() > RunConfigDiffModel::FirstValueColumn + 1);
    connect(m_showAll, &QCheckBox::toggled, this, [this](bool on) {
        m_model->setShowAll(on);
        retranslate();
        fitColumns();
    });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_showAll);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    m_summary->setWordWrap(true);
    retranslate();
    fitColumns();
    resize(720, 520);
}

void RunConfigDialog::fitColumns()
{
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c) // a long value does not push the others away
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), kMaxColumnWidth));
}

RunConfigDialog::~RunConfigDialog() = default;

QString RunConfigDialog::summary() const
{
    return m_summary->text();
}

void RunConfigDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

void RunConfigDialog::retranslate()
{
    const int configs = m_model->columnCount() - RunConfigDiffModel::FirstValueColumn;
    m_showAll->setText(tr("Show all settings"));
    if (configs < 2) {
        setWindowTitle(tr("Config of run %1").arg(m_model->headerData(RunConfigDiffModel::FirstValueColumn,
                                                                        Qt::Horizontal).toString()));
        m_summary->setText(tr("%n setting(s).", nullptr, m_model->pathCount()));
        return;
    }
    setWindowTitle(tr("Compare configs: %1 and %2")
                       .arg(m_model->headerData(RunConfigDiffModel::FirstValueColumn, Qt::Horizontal).toString(),
                            m_model->headerData(RunConfigDiffModel::FirstValueColumn + 1, Qt::Horizontal).toString()));
    const int differ = m_model->differenceCount();
    if (differ == 0)
        m_summary->setText(tr("The configs are the same (%n setting(s)).", nullptr, m_model->pathCount()));
    else
        m_summary->setText(tr("%1 of %n setting(s) differ.", nullptr, m_model->pathCount()).arg(differ) +
                           (m_model->showAll() ? QLatin1Char(' ') + tr("The settings that differ are marked.")
                                               : QString()));
}

} // namespace rwb::widgets
