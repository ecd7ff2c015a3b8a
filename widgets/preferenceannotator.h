#pragma once

#include "storedocument.h"

#include "prm/preference.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;
class QTextBrowser;
class QToolButton;

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

class AgreementMatrixModel;
class PairQueueFilter;
class PairQueueModel;

// The annotation view for preference pairs of reasoning steps (ProRAG §3.2; docs/prm.md):
// a pair set of a run store, one pair at a time. The question, the shared history
// (collapsible; retrievals shown), step A and step B side by side with the characters
// that differ marked, the other raters' labels of the pair, and a reason field. Keys, from
// anywhere in the view but a text field: A / B prefer a step, T tie, S skip, U undo the
// last label, ← / → the previous / next pair of the queue. A label is written to the store
// at once (the annotator's name and the time with it) and the queue moves on.
//
// Left: the queue (PairQueueModel) with its filters — all, unlabelled by you,
// disagreements, a question text, and the two raters of an agreement cell. Right: the
// agreement matrix (AgreementMatrixModel; click a cell to see the pairs those two raters
// disagree on) with Krippendorff's α, and the guidelines (a Markdown file beside the store
// that the project edits: annotation-guidelines.md).
//
// Several people label the same store without a server: each under their own name; their
// labels never overwrite one another's. Store failures are shown in the red line and
// change nothing; a store that cannot be opened for writing is shown read-only. GUI
// thread only.
class PreferenceAnnotator : public QWidget {
    Q_OBJECT
public:
    explicit PreferenceAnnotator(QWidget *parent = nullptr);
    ~PreferenceAnnotator() override;

    // Opens pair set `set` of the store (the first set when empty). On failure returns false
    // with the message in `error` (also shown).
    bool open(std::shared_ptr<StoreDocument> document, const QString &set = {}, QString *error = nullptr);
    // The same, opening the store's document first.
    bool open(const QString &storePath, const QString &set = {}, QString *error = nullptr);
    QString storePath() const { return m_document ? m_document->path() : QString(); }
    QString set() const { return m_set; }
    // The sets of the open store.
    QStringList sets() const;

    // Whose labels these are (a name chosen at start; required before labelling).
    void setAnnotator(const QString &name);
    QString annotator() const;

    // Shows a pair (selecting its queue row; the filters are cleared when they hide it).
    bool showPair(qint64 pairId);
    qint64 currentPair() const { return m_pairId; }

    // The guidelines file (default: annotation-guidelines.md beside the store).
    QString guidelinesPath() const { return m_guidelinesPath; }

    PairQueueModel *queue() const { return m_queue; }
    PairQueueFilter *filter() const { return m_filter; }
    AgreementMatrixModel *matrix() const { return m_matrix; }
    QTableView *queueView() const { return m_queueView; }
    QTableView *matrixView() const { return m_matrixView; }
    QComboBox *modeBox() const { return m_mode; }
    QLineEdit *questionFilter() const { return m_questionFilter; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QTextBrowser *stepABrowser() const { return m_stepA; }
    QTextBrowser *stepBBrowser() const { return m_stepB; }
    QTextBrowser *historyBrowser() const { return m_history; }
    QToolButton *historyToggle() const { return m_historyToggle; }
    QPlainTextEdit *guidelinesEdit() const { return m_guidelines; }
    QLabel *progressLabel() const { return m_progressLabel; }
    QLabel *othersLabel() const { return m_others; }
    QLabel *alphaLabel() const { return m_alpha; }
    QLabel *errorLabel() const { return m_error; }
    QLabel *raterFilterLabel() const { return m_raterFilter; }

public Q_SLOTS:
    // Labels the pair shown (A, B, Tie or Skip) with the reason typed, and moves on.
    void label(prm::Choice choice);
    // Undoes the last label given in this view (the pair's previous label comes back).
    void undo();
    void next();
    void previous();
    // The queue shows the pairs raters i and j (matrix rows) disagree on; i = j clears.
    void filterByRaters(int i, int j);
    void clearRaterFilter();
    bool saveGuidelines();
    // Asks for a name (a dialog); false when cancelled.
    bool chooseAnnotator();

Q_SIGNALS:
    void labelled(qint64 pairId);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildUi();
    void retranslate();
    void showError(const QString &message);
    void currentRowChanged();
    void render();
    void updateProgress();
    void updateAgreement();
    void fitAgreementPane();
    void loadGuidelines();
    void selectProxyRow(int row);
    int currentProxyRow() const;
    bool write(const prm::Label &label);

    std::shared_ptr<StoreDocument> m_document; // labels are written through its writable()
    QString m_set, m_guidelinesPath;
    qint64 m_pairId = -1;
    bool m_readOnly = false; // the store could only be opened read-only: no labelling
    struct UndoEntry {
        qint64 pairId = 0;
        std::string annotator;              // whose label it was
        std::optional<prm::Label> previous; // their label before (none: there was none)
    };
    std::vector<UndoEntry> m_undo;

    PairQueueModel *m_queue = nullptr;
    PairQueueFilter *m_filter = nullptr;
    AgreementMatrixModel *m_matrix = nullptr;
    QLabel *m_title = nullptr, *m_annotatorLabel = nullptr, *m_progressLabel = nullptr, *m_error = nullptr;
    QPushButton *m_changeAnnotator = nullptr;
    QProgressBar *m_progress = nullptr;
    QComboBox *m_mode = nullptr;
    QLineEdit *m_questionFilter = nullptr;
    QLabel *m_raterFilter = nullptr;
    QToolButton *m_clearRaters = nullptr;
    QTableView *m_queueView = nullptr;
    QLabel *m_question = nullptr;
    QToolButton *m_historyToggle = nullptr;
    QTextBrowser *m_history = nullptr;
    QLabel *m_stepATitle = nullptr, *m_stepBTitle = nullptr;
    QTextBrowser *m_stepA = nullptr, *m_stepB = nullptr;
    QLabel *m_others = nullptr;
    QLineEdit *m_reason = nullptr;
    QPushButton *m_buttons[7] = {}; // A, B, tie, skip, undo, previous, next
    QLabel *m_keysHint = nullptr;
    QTableView *m_matrixView = nullptr;
    QSplitter *m_split = nullptr;
    QLabel *m_alpha = nullptr, *m_matrixHint = nullptr;
    QPlainTextEdit *m_guidelines = nullptr;
    QPushButton *m_saveGuidelines = nullptr;
    QLabel *m_guidelinesStatus = nullptr;
    QWidget *m_rightTabs = nullptr;
};

} // namespace rwb::widgets
