#include "rubriceditor.h"

#include "rubricmodel.h"

#include <nlohmann/json.hpp>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace rwb::widgets {

using rwb::judge::RubricCategory;

namespace {

// Category as a combo box, weight as a spin box that takes negative values (pitfalls).
class RubricItemDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        if (index.column() == RubricModel::CategoryColumn) {
            auto *combo = new QComboBox(parent);
            for (RubricCategory c : {RubricCategory::Essential, RubricCategory::Important, RubricCategory::Optional,
                                     RubricCategory::Pitfall, RubricCategory::Unspecified})
                combo->addItem(RubricModel::categoryName(c), static_cast<int>(c));
            return combo;
        }
        if (index.column() == RubricModel::WeightColumn) {
            auto *spin = new QDoubleSpinBox(parent);
            spin->setRange(-100.0, 100.0);
            spin->setDecimals(2);
            spin->setSingleStep(1.0);
            return spin;
        }
        return QStyledItemDelegate::createEditor(parent, option, index);
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        if (auto *combo = qobject_cast<QComboBox *>(editor))
            combo->setCurrentIndex(combo->findData(index.data(Qt::EditRole)));
        else if (auto *spin = qobject_cast<QDoubleSpinBox *>(editor))
            spin->setValue(index.data(Qt::EditRole).toDouble());
        else
            QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override
    {
        if (auto *combo = qobject_cast<QComboBox *>(editor))
            model->setData(index, combo->currentData(), Qt::EditRole);
        else if (auto *spin = qobject_cast<QDoubleSpinBox *>(editor))
            model->setData(index, spin->value(), Qt::EditRole); // 0 is refused: the old weight stays
        else
            QStyledItemDelegate::setModelData(editor, model, index);
    }
};

} // namespace

RubricEditor::RubricEditor(QWidget *parent) : QWidget(parent)
{
    m_model = new RubricModel(this);
    build();
    retranslate();
    updateState();
}

RubricEditor::~RubricEditor() = default;

void RubricEditor::build()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *top = new QHBoxLayout;
    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("rubricSource"));
    m_source->setTextFormat(Qt::RichText);
    m_source->setWordWrap(true);
    m_source->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_fromSample = new QPushButton(this);
    m_fromSample->setObjectName(QStringLiteral("rubricFromSample"));
    m_open = new QPushButton(this);
    m_open->setObjectName(QStringLiteral("rubricOpen"));
    m_save = new QPushButton(this);
    m_save->setObjectName(QStringLiteral("rubricSave"));
    top->addWidget(m_source, 1);
    top->addWidget(m_fromSample);
    top->addWidget(m_open);
    top->addWidget(m_save);
    layout->addLayout(top);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("rubricTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new RubricItemDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView *h = m_table->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(RubricModel::CriterionColumn, QHeaderView::Stretch);
    const QFontMetrics fm = m_table->fontMetrics();
    m_table->setColumnWidth(RubricModel::CategoryColumn, fm.horizontalAdvance(QStringLiteral("Unspecified")) + 28);
    m_table->setColumnWidth(RubricModel::WeightColumn, fm.horizontalAdvance(QStringLiteral("−10.5")) + 30);
    m_table->setColumnWidth(RubricModel::TitleColumn, fm.horizontalAdvance(QStringLiteral("deadline_item")) + 16);
    m_table->setColumnWidth(RubricModel::VerdictColumn, fm.horizontalAdvance(QStringLiteral("not met")) + 24);
    m_table->setColumnWidth(RubricModel::ContributionColumn, fm.horizontalAdvance(QStringLiteral("Contribution")) + 16);
    layout->addWidget(m_table, 1);

    auto *bottom = new QHBoxLayout;
    m_add = new QPushButton(this);
    m_add->setObjectName(QStringLiteral("rubricAdd"));
    m_remove = new QPushButton(this);
    m_remove->setObjectName(QStringLiteral("rubricRemove"));
    m_up = new QPushButton(QStringLiteral("↑"), this);
    m_up->setObjectName(QStringLiteral("rubricUp"));
    m_down = new QPushButton(QStringLiteral("↓"), this);
    m_down->setObjectName(QStringLiteral("rubricDown"));
    for (QPushButton *b : {m_up, m_down})
        b->setMaximumWidth(fm.horizontalAdvance(QStringLiteral("↓")) + 24);
    m_score = new QLabel(this);
    m_score->setObjectName(QStringLiteral("rubricScore"));
    m_score->setTextFormat(Qt::PlainText);
    m_score->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_scopeLabel = new QLabel(this);
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("rubricScope"));
    m_scope->addItem(QString(), static_cast<int>(Scope::Question));
    m_scope->addItem(QString(), static_cast<int>(Scope::Every));
    m_scopeLabel->setBuddy(m_scope);
    m_apply = new QPushButton(this);
    m_apply->setObjectName(QStringLiteral("rubricApply"));
    bottom->addWidget(m_add);
    bottom->addWidget(m_remove);
    bottom->addWidget(m_up);
    bottom->addWidget(m_down);
    bottom->addSpacing(8);
    bottom->addWidget(m_score, 1);
    bottom->addWidget(m_scopeLabel);
    bottom->addWidget(m_scope);
    bottom->addWidget(m_apply);
    layout->addLayout(bottom);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("rubricProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    layout->addWidget(m_problem);

    connect(m_fromSample, &QPushButton::clicked, this, &RubricEditor::sampleRubricRequested);
    connect(m_open, &QPushButton::clicked, this, &RubricEditor::openFileDialog);
    connect(m_save, &QPushButton::clicked, this, &RubricEditor::saveFileDialog);
    connect(m_add, &QPushButton::clicked, this, &RubricEditor::addItem);
    connect(m_remove, &QPushButton::clicked, this, &RubricEditor::removeSelected);
    connect(m_up, &QPushButton::clicked, this, [this] { moveSelected(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { moveSelected(+1); });
    connect(m_apply, &QPushButton::clicked, this, &RubricEditor::apply);
    connect(m_model, &RubricModel::changed, this, &RubricEditor::updateState);
    connect(m_model, &RubricModel::modifiedChanged, this, &RubricEditor::updateState);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RubricEditor::updateState);
}

void RubricEditor::retranslate()
{
    m_fromSample->setText(tr("Selected sample"));
    m_fromSample->setToolTip(tr("Edit the rubric of the selected sample's question"));
    m_open->setText(tr("Open…"));
    m_open->setToolTip(tr("Open a rubric file: RaR ({title, description, weight}) or HealthBench ({criterion, points, tags})"));
    m_save->setText(tr("Save as…"));
    m_save->setToolTip(tr("Save the items as a rubric file in the RaR or the HealthBench form"));
    m_add->setText(tr("Add"));
    m_add->setToolTip(tr("Add an item after the selected one"));
    m_remove->setText(tr("Delete"));
    m_remove->setToolTip(tr("Delete the selected item"));
    m_up->setToolTip(tr("Move the selected item up"));
    m_down->setToolTip(tr("Move the selected item down"));
    m_scopeLabel->setText(tr("Apply &to:"));
    m_scope->setItemText(0, tr("this question's samples"));
    m_scope->setItemText(1, tr("every sample"));
    m_apply->setText(tr("Apply and re-score"));
    m_apply->setToolTip(tr("Judge the samples with these items: calls whose request did not change come from the "
                           "cache, only the edited items are sent again"));
    updateState();
}

void RubricEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RubricEditor::updateState()
{
    QString source;
    if (!m_sampleId.isEmpty())
        source = m_ownRubric ? tr("<b>Rubric</b> of the question of %1 (%n sample(s))", nullptr, m_samples).arg(m_sampleId.toHtmlEscaped())
                             : tr("<b>Rubric</b>: the question of %1 has none (%n sample(s)); add items or open a file",
                                  nullptr, m_samples)
                                   .arg(m_sampleId.toHtmlEscaped());
    else if (!m_file.isEmpty())
        source = tr("<b>Rubric</b> from %1").arg(QFileInfo(m_file).fileName().toHtmlEscaped());
    else
        source = tr("<b>Rubric</b>: none open");
    if (m_model->isModified())
        source += QStringLiteral(" <span style=\"color:#b26a00\">● %1</span>").arg(tr("edited"));
    m_source->setText(source);

    const QString problem = m_model->rowCount() > 0 ? m_model->problem() : QString();
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_apply->setEnabled(m_model->rowCount() > 0 && problem.isEmpty());
    m_save->setEnabled(m_model->rowCount() > 0);
    m_scope->setEnabled(!m_sampleId.isEmpty());
    const int row = m_table->selectionModel()->currentIndex().row();
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < m_model->rowCount());

    const std::optional<double> score = m_model->score();
    if (m_verdictSample.isEmpty() || m_model->rowCount() == 0)
        m_score->clear();
    else if (score)
        m_score->setText(tr("Explicit score of %1: %2").arg(m_verdictSample).arg(*score, 0, 'f', 3));
    else
        m_score->setText(tr("Explicit score of %1: — (an item has no verdict)").arg(m_verdictSample));
}

RubricEditor::Scope RubricEditor::scope() const
{
    return static_cast<Scope>(m_scope->currentData().toInt());
}

void RubricEditor::setScope(Scope scope)
{
    m_scope->setCurrentIndex(m_scope->findData(static_cast<int>(scope)));
}

void RubricEditor::setDiscardHandler(std::function<bool()> handler)
{
    m_discard = std::move(handler);
}

bool RubricEditor::maySwitch()
{
    if (!m_model->isModified())
        return true;
    if (m_discard)
        return m_discard();
    return QMessageBox::question(this, tr("Unsaved rubric"),
                                 tr("The rubric has edits that are neither applied nor saved. Discard them?"),
                                 QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Discard;
}

bool RubricEditor::openSampleRubric(const std::shared_ptr<const rwb::judge::Rubric> &rubric, const QString &sampleId,
                                    int samples)
{
    if (!maySwitch())
        return false;
    m_sampleId = sampleId;
    m_samples = samples;
    m_ownRubric = rubric != nullptr;
    m_file.clear();
    m_verdictSample.clear();
    m_model->setRubric(rubric ? *rubric : rwb::judge::Rubric{});
    setScope(Scope::Question);
    updateState();
    return true;
}

bool RubricEditor::openFile(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot open: %2").arg(path, f.errorString());
        return false;
    }
    const QByteArray bytes = f.readAll();
    rwb::judge::Rubric rubric;
    try {
        rubric = rwb::judge::parseRubricText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                                             path.toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    if (!maySwitch())
        return false;
    m_sampleId.clear();
    m_samples = 0;
    m_ownRubric = false;
    m_file = path;
    m_verdictSample.clear();
    m_model->setRubric(rubric);
    setScope(Scope::Every);
    updateState();
    return true;
}

bool RubricEditor::saveFile(const QString &path, Format format, QString *error)
{
    const rwb::judge::Rubric rubric = m_model->rubric();
    try {
        rwb::judge::validateRubric(rubric, path.toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    const nlohmann::json j = format == Format::RaR ? rwb::judge::toRaR(rubric) : rwb::judge::toHealthBench(rubric);
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), static_cast<qint64>(text.size())) < 0 || !f.commit()) {
        if (error)
            *error = tr("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    if (m_sampleId.isEmpty())
        m_file = path;
    m_model->setModified(false);
    updateState();
    return true;
}

void RubricEditor::showVerdicts(const QString &sampleId, const std::vector<std::optional<double>> &verdicts)
{
    m_verdictSample = sampleId;
    m_model->setVerdicts(verdicts);
    updateState();
}

bool RubricEditor::apply()
{
    const QString problem = m_model->problem();
    if (m_model->rowCount() == 0 || !problem.isEmpty()) {
        m_problem->setText(problem.isEmpty() ? tr("The rubric has no items.") : problem);
        m_problem->show();
        return false;
    }
    // Applied edits live on in the Designer: nothing is lost when another rubric opens.
    m_model->setModified(false);
    updateState();
    Q_EMIT applyRequested(m_model->rubric(), scope());
    return true;
}

void RubricEditor::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a rubric"), QString(),
                                                      tr("Rubrics (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openFile(path, &error) && !error.isEmpty())
        QMessageBox::warning(this, tr("Open a rubric"), error);
}

void RubricEditor::saveFileDialog()
{
    const QString rar = tr("RaR form (*.json)");
    const QString healthBench = tr("HealthBench form (*.json)");
    QString filter = rar;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the rubric"), m_file, rar + QStringLiteral(";;") + healthBench,
                                                      &filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!saveFile(path, filter == healthBench ? Format::HealthBench : Format::RaR, &error))
        QMessageBox::warning(this, tr("Save the rubric"), error);
}

void RubricEditor::editItem(int row, int column)
{
    const QModelIndex index = m_model->index(row, column);
    if (!index.isValid())
        return;
    m_table->setCurrentIndex(index);
    m_table->edit(index);
}

void RubricEditor::addItem()
{
    const int current = m_table->selectionModel()->currentIndex().row();
    const int row = current >= 0 ? current + 1 : m_model->rowCount();
    m_model->insertRows(row, 1);
    editItem(row, RubricModel::CriterionColumn);
}

void RubricEditor::removeSelected()
{
    const int row = m_table->selectionModel()->currentIndex().row();
    if (row >= 0)
        m_model->removeRows(row, 1);
}

void RubricEditor::moveSelected(int delta)
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const int row = current.row();
    const int to = row + delta;
    if (row < 0 || to < 0 || to >= m_model->rowCount())
        return;
    // moveRows' destination is the row the item goes before.
    if (m_model->moveRows({}, row, 1, {}, delta > 0 ? to + 1 : to))
        m_table->setCurrentIndex(m_model->index(to, current.column()));
}

} // namespace rwb::widgets
