#include "importpreviewpanel.h"

#include "importmappingmodel.h"
#include "importpreviewmodel.h"

#include "data/jsonl.h"

#include <QDateTime>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace rwb::widgets {

namespace {

QTableView *table(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *t = new QTableView(parent);
    t->setObjectName(name);
    t->setModel(model);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().lineSpacing() + 6);
    t->setMinimumHeight(t->verticalHeader()->defaultSectionSize() * 9);
    return t;
}

// Columns as wide as their contents, up to a third of the view each.
void fitColumns(QTableView *t)
{
    t->resizeColumnsToContents();
    const int most = std::max(120, t->viewport()->width() / 3);
    for (int c = 0; c + 1 < t->model()->columnCount(); ++c)
        t->setColumnWidth(c, std::min(t->columnWidth(c), most));
}

} // namespace

ImportPreviewPanel::ImportPreviewPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_mappingTitle(new QLabel(this))
    , m_rowsTitle(new QLabel(this))
    , m_notes(new QLabel(this))
    , m_mapping(new ImportMappingModel(this))
    , m_rows(new ImportPreviewModel(this))
{
    setObjectName(QStringLiteral("importPreview"));
    m_summary->setObjectName(QStringLiteral("importPreviewSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setObjectName(QStringLiteral("importPreviewNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mappingView = table(m_mapping, QStringLiteral("importMapping"), this);
    m_rowsView = table(m_rows, QStringLiteral("importRows"), this);
    // Field → what it becomes, the target taking the room.
    m_mappingView->horizontalHeader()->setStretchLastSection(false);
    m_mappingView->horizontalHeader()->setSectionResizeMode(ImportMappingModel::TargetColumn, QHeaderView::Stretch);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_mappingTitle);
    layout->addWidget(m_mappingView, 1);
    layout->addWidget(m_rowsTitle);
    layout->addWidget(m_rowsView, 2);
    layout->addWidget(m_notes);
    clear(QString());
}

QString ImportPreviewPanel::formatName(store::DumpFormat format)
{
    switch (format) {
    case store::DumpFormat::Verl: return tr("verl's rollout dump");
    case store::DumpFormat::Trl: return tr("TRL's completions table");
    case store::DumpFormat::OpenRlhf: return tr("OpenRLHF's samples");
    case store::DumpFormat::PrimeRl: return tr("prime-rl's episodes");
    case store::DumpFormat::NemoRl: return tr("NeMo-RL's train data");
    case store::DumpFormat::Auto: break;
    }
    return tr("not detected");
}

QString ImportPreviewPanel::refresh(const QStringList &paths, const store::ImportOptions &options)
{
    QStringList key{QString::number(static_cast<int>(options.format)), QString::fromStdString(options.tokenizerDir),
                    QString::number(options.groupSize), QString::number(options.includeEval),
                    QString::fromStdString(options.runName)};
    for (const auto &[name, weight] : options.weights)
        key << QString::fromStdString(name) + QLatin1Char('=') + QString::number(weight);
    for (const QString &p : paths) {
        const QFileInfo f(p);
        key << p << QString::number(f.size()) << QString::number(f.lastModified().toMSecsSinceEpoch());
    }
    const QString joined = key.join(QChar(0x1f));
    if (joined == m_key && m_why.isEmpty())
        return m_error;
    m_key = joined;
    m_why.clear();
    std::vector<std::string> list;
    for (const QString &p : paths)
        list.push_back(p.toStdString());
    store::ImportOptions o = options;
    o.progress = nullptr;
    try {
        m_preview = store::previewImport(list, o, kRows);
        m_error.clear();
    } catch (const std::exception &e) {
        m_preview.reset();
        m_error = QString::fromUtf8(e.what());
    }
    show(m_error);
    return m_error;
}

void ImportPreviewPanel::clear(const QString &why)
{
    m_key.clear();
    m_error.clear();
    m_why = why;
    m_preview.reset();
    show(QString());
}

void ImportPreviewPanel::show(const QString &error)
{
    if (m_preview) {
        m_mapping->setMapping(m_preview->report.mapped, m_preview->report.unmapped);
        m_rows->setRows(m_preview->rows);
    } else {
        m_mapping->setMapping({}, {});
        m_rows->setRows({});
    }
    fitColumns(m_mappingView);
    fitColumns(m_rowsView);
    m_summary->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
    retranslate();
}

QString ImportPreviewPanel::summaryText() const
{
    if (!m_error.isEmpty())
        return tr("The import would stop here: %1").arg(m_error);
    if (!m_preview)
        return m_why.isEmpty() ? tr("Choose a dump: its trainer, fields and first rows show here before importing.") : m_why;
    const store::ImportReport &r = m_preview->report;
    const int files = static_cast<int>(m_preview->allFiles.size());
    if (m_preview->rows.empty())
        return tr("%n file(s); none could be previewed here (see below): the import reads them and its report shows "
                  "the mapping.",
                  nullptr, files);
    QString text = tr("%1, detected from the first row. %n file(s) to import.", nullptr, files).arg(formatName(r.format));
    text += QLatin1Char(' ');
    if (m_preview->partial)
        text += tr("The first %n rollout(s) read, of %1 file(s) so far:", nullptr, static_cast<int>(r.rollouts))
                    .arg(r.files.size());
    else
        text += tr("All %n rollout(s) read:", nullptr, static_cast<int>(r.rollouts));
    text += QLatin1Char(' ') + tr("%1 step(s), %2 group(s). The run: \"%3\".")
                                   .arg(r.steps)
                                   .arg(r.groups)
                                   .arg(QString::fromStdString(r.runName));
    return text;
}

QString ImportPreviewPanel::notesText() const
{
    if (!m_preview)
        return {};
    QStringList lines;
    for (const std::string &s : m_preview->notRead)
        lines << tr("Not previewed: %1").arg(QString::fromStdString(s));
    for (const std::string &s : m_preview->report.computed)
        lines << tr("Worked out: %1").arg(QString::fromStdString(s));
    for (const std::string &s : m_preview->report.skipped)
        lines << tr("Skipped: %1").arg(QString::fromStdString(s));
    return lines.join(QLatin1Char('\n'));
}

void ImportPreviewPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ImportPreviewPanel::retranslate()
{
    m_summary->setText(summaryText());
    m_mappingTitle->setText(tr("What maps to what (grey: kept only in each rollout's details, or not imported):"));
    m_rowsTitle->setText(tr("The first rows, as the import reads them:"));
    const QString notes = notesText();
    m_notes->setText(notes);
    m_notes->setVisible(!notes.isEmpty());
}

} // namespace rwb::widgets
