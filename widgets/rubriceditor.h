#pragma once

#include "judge/rubric.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace rwb::widgets {

class RubricModel;

// The rubric editor of the Reward Designer: the items of a rubric (a sample's, as its
// dataset line carries it, or a file's: RaR or HealthBench) with weight, category, title
// and criterion; add, delete, move up and down; open and save both published forms; and
// "Apply and re-score", which hands the edited rubric to the Designer for the samples of
// the sample's question or for every sample. For one sample it shows the judge's verdict
// on each item and the explicit score they give.
//
// Nothing is dropped silently: opening another rubric (a sample's or a file) while the
// items have edits that were neither applied nor saved asks first. A file that does not
// parse changes nothing; the message names the file, the item and the field. GUI thread
// only.
class RubricEditor : public QWidget {
    Q_OBJECT
public:
    // Whose samples an applied rubric goes to.
    enum class Scope { Question, Every };
    enum class Format { RaR, HealthBench };

    explicit RubricEditor(QWidget *parent = nullptr);
    ~RubricEditor() override;

    RubricModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }

    // Shows the rubric of the question of sample `sampleId`, shared by `samples` samples
    // (`rubric` null: they have none; the editor starts empty). Returns false, changing
    // nothing, when the user keeps unsaved edits.
    bool openSampleRubric(const std::shared_ptr<const rwb::judge::Rubric> &rubric, const QString &sampleId, int samples);
    // Reads a rubric file (judge::parseRubricText). False, changing nothing, when it does
    // not parse (`error` names the file, the item and the field) or the user keeps edits.
    bool openFile(const QString &path, QString *error);
    // Writes the items in `format`; false (`error` naming the item and field, or the file)
    // when they are not a valid rubric or the file cannot be written.
    bool saveFile(const QString &path, Format format, QString *error);

    // The sample whose question's rubric is shown ("" for a file's or a new one).
    QString sampleId() const { return m_sampleId; }
    QString filePath() const { return m_file; }
    Scope scope() const;
    void setScope(Scope scope);

    // Selects item `row` and opens its `column` cell for editing, as a double click does.
    void editItem(int row, int column);

    // The judge's verdicts on the items for sample `sampleId` (one per item; nullopt: none).
    void showVerdicts(const QString &sampleId, const std::vector<std::optional<double>> &verdicts);

    // Asks whether edits neither applied nor saved may be dropped (true: drop them). The
    // default asks with a message box; a test may answer instead.
    void setDiscardHandler(std::function<bool()> handler);
    // True when nothing would be lost, or the user agreed to lose it.
    bool maySwitch();

public Q_SLOTS:
    // Emits applyRequested() when the items are a valid rubric (else shows why).
    bool apply();
    void openFileDialog();
    void saveFileDialog();

Q_SIGNALS:
    void applyRequested(const rwb::judge::Rubric &rubric, rwb::widgets::RubricEditor::Scope scope);
    // "The selected sample's rubric" was asked for.
    void sampleRubricRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void build();
    void retranslate();
    void updateState();
    void moveSelected(int delta);
    void removeSelected();
    void addItem();

    RubricModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_source = nullptr;
    QLabel *m_score = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_scopeLabel = nullptr;
    QComboBox *m_scope = nullptr;
    QPushButton *m_fromSample = nullptr, *m_open = nullptr, *m_save = nullptr, *m_add = nullptr,
                *m_remove = nullptr, *m_up = nullptr, *m_down = nullptr, *m_apply = nullptr;
    std::function<bool()> m_discard;
    QString m_sampleId;      // the sample whose question's rubric is shown
    int m_samples = 0;       // samples sharing that question
    bool m_ownRubric = false; // the sample has a rubric (else the editor started empty)
    QString m_file;          // the file the rubric came from or went to
    QString m_verdictSample; // the sample the verdicts are of
};

} // namespace rwb::widgets
