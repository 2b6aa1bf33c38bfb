"""The references the methods text may cite, as data; BibTeX and plain text are made from it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    """One bibliography entry.

    ``short`` is the author-year form used in Markdown (``Järvelin & Kekäläinen, 2002``);
    ``text`` the full reference for a list; ``fields`` the BibTeX fields, in order
    (values are already valid BibTeX: accents as ``{\\"a}``).
    """

    key: str
    kind: str
    short: str
    text: str
    fields: tuple[tuple[str, str], ...]

    def bibtex(self) -> str:
        """The entry in BibTeX syntax.

        Examples
        --------
        >>> print(REFERENCES["holm1979"].bibtex().splitlines()[0])
        @article{holm1979,
        """
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in self.fields)
        return f"@{self.kind}{{{self.key},\n{body}\n}}\n"


def _ref(key: str, kind: str, short: str, text: str, **fields: str) -> Reference:
    return Reference(key, kind, short, text, tuple(fields.items()))


REFERENCES: dict[str, Reference] = {
    r.key: r
    for r in (
        _ref(
            "jarvelin2002", "article", "Järvelin & Kekäläinen, 2002",
            "Kalervo Järvelin and Jaana Kekäläinen. Cumulated gain-based evaluation of IR "
            "techniques. ACM Transactions on Information Systems, 20(4):422–446, 2002.",
            author="J{\\\"a}rvelin, Kalervo and Kek{\\\"a}l{\\\"a}inen, Jaana",
            title="Cumulated Gain-Based Evaluation of {IR} Techniques",
            journal="ACM Transactions on Information Systems", volume="20", number="4",
            pages="422--446", year="2002", doi="10.1145/582415.582418",
        ),
        _ref(
            "voorhees1999", "inproceedings", "Voorhees, 1999",
            "Ellen M. Voorhees. The TREC-8 question answering track report. In Proceedings "
            "of the Eighth Text REtrieval Conference (TREC-8), NIST Special Publication "
            "500-246, pages 77–82, 1999.",
            author="Voorhees, Ellen M.", title="The {TREC-8} Question Answering Track Report",
            booktitle="Proceedings of the Eighth Text REtrieval Conference (TREC-8)",
            series="NIST Special Publication 500-246", pages="77--82", year="1999",
        ),
        _ref(
            "buckley2000", "inproceedings", "Buckley & Voorhees, 2000",
            "Chris Buckley and Ellen M. Voorhees. Evaluating evaluation measure stability. "
            "In Proceedings of SIGIR 2000, pages 33–40, 2000.",
            author="Buckley, Chris and Voorhees, Ellen M.",
            title="Evaluating Evaluation Measure Stability",
            booktitle="Proceedings of the 23rd Annual International ACM SIGIR Conference on "
            "Research and Development in Information Retrieval",
            pages="33--40", year="2000", doi="10.1145/345508.345543",
        ),
        _ref(
            "buckley2004", "inproceedings", "Buckley & Voorhees, 2004",
            "Chris Buckley and Ellen M. Voorhees. Retrieval evaluation with incomplete "
            "information. In Proceedings of SIGIR 2004, pages 25–32, 2004.",
            author="Buckley, Chris and Voorhees, Ellen M.",
            title="Retrieval Evaluation with Incomplete Information",
            booktitle="Proceedings of the 27th Annual International ACM SIGIR Conference on "
            "Research and Development in Information Retrieval",
            pages="25--32", year="2004", doi="10.1145/1008992.1009000",
        ),
        _ref(
            "keen1968", "incollection", "Keen, 1968",
            "E. M. Keen. Evaluation parameters. In Gerard Salton (ed.), Information Storage "
            "and Retrieval, Scientific Report No. ISR-13 to the National Science Foundation, "
            "Department of Computer Science, Cornell University, Ithaca, NY, 1968.",
            author="Keen, E. M.", title="Evaluation Parameters", editor="Salton, Gerard",
            booktitle="Information Storage and Retrieval, Scientific Report No. {ISR-13} to "
            "the National Science Foundation",
            publisher="Department of Computer Science, Cornell University",
            address="Ithaca, NY", year="1968",
        ),
        _ref(
            "chapelle2009", "inproceedings", "Chapelle et al., 2009",
            "Olivier Chapelle, Donald Metzler, Ya Zhang and Pierre Grinspan. Expected "
            "reciprocal rank for graded relevance. In Proceedings of CIKM 2009, pages "
            "621–630, 2009.",
            author="Chapelle, Olivier and Metzler, Donald and Zhang, Ya and Grinspan, Pierre",
            title="Expected Reciprocal Rank for Graded Relevance",
            booktitle="Proceedings of the 18th ACM Conference on Information and Knowledge "
            "Management", pages="621--630", year="2009", doi="10.1145/1645953.1646033",
        ),
        _ref(
            "moffat2008", "article", "Moffat & Zobel, 2008",
            "Alistair Moffat and Justin Zobel. Rank-biased precision for measurement of "
            "retrieval effectiveness. ACM Transactions on Information Systems, 27(1):2, 2008.",
            author="Moffat, Alistair and Zobel, Justin",
            title="Rank-Biased Precision for Measurement of Retrieval Effectiveness",
            journal="ACM Transactions on Information Systems", volume="27", number="1",
            pages="2:1--2:27", year="2008", doi="10.1145/1416950.1416952",
        ),
        _ref(
            "student1908", "article", "Student, 1908",
            "Student. The probable error of a mean. Biometrika, 6(1):1–25, 1908.",
            author="Student", title="The Probable Error of a Mean", journal="Biometrika",
            volume="6", number="1", pages="1--25", year="1908", doi="10.2307/2331554",
        ),
        _ref(
            "wilcoxon1945", "article", "Wilcoxon, 1945",
            "Frank Wilcoxon. Individual comparisons by ranking methods. Biometrics Bulletin, "
            "1(6):80–83, 1945.",
            author="Wilcoxon, Frank", title="Individual Comparisons by Ranking Methods",
            journal="Biometrics Bulletin", volume="1", number="6", pages="80--83",
            year="1945", doi="10.2307/3001968",
        ),
        _ref(
            "conover1999", "book", "Conover, 1999",
            "W. J. Conover. Practical Nonparametric Statistics, 3rd edition. Wiley, 1999.",
            author="Conover, W. J.", title="Practical Nonparametric Statistics",
            edition="3rd", publisher="Wiley", year="1999",
        ),
        _ref(
            "fisher1935", "book", "Fisher, 1935",
            "Ronald A. Fisher. The Design of Experiments. Oliver and Boyd, 1935.",
            author="Fisher, Ronald A.", title="The Design of Experiments",
            publisher="Oliver and Boyd", address="Edinburgh", year="1935",
        ),
        _ref(
            "efron1993", "book", "Efron & Tibshirani, 1993",
            "Bradley Efron and Robert J. Tibshirani. An Introduction to the Bootstrap. "
            "Chapman & Hall, 1993.",
            author="Efron, Bradley and Tibshirani, Robert J.",
            title="An Introduction to the Bootstrap", publisher="Chapman \\& Hall",
            year="1993",
        ),
        _ref(
            "smucker2007", "inproceedings", "Smucker et al., 2007",
            "Mark D. Smucker, James Allan and Ben Carterette. A comparison of statistical "
            "significance tests for information retrieval evaluation. In Proceedings of "
            "CIKM 2007, pages 623–632, 2007.",
            author="Smucker, Mark D. and Allan, James and Carterette, Ben",
            title="A Comparison of Statistical Significance Tests for Information Retrieval "
            "Evaluation",
            booktitle="Proceedings of the 16th ACM Conference on Information and Knowledge "
            "Management", pages="623--632", year="2007", doi="10.1145/1321440.1321528",
        ),
        _ref(
            "dunn1961", "article", "Dunn, 1961",
            "Olive Jean Dunn. Multiple comparisons among means. Journal of the American "
            "Statistical Association, 56(293):52–64, 1961.",
            author="Dunn, Olive Jean", title="Multiple Comparisons among Means",
            journal="Journal of the American Statistical Association", volume="56",
            number="293", pages="52--64", year="1961", doi="10.1080/01621459.1961.10482090",
        ),
        _ref(
            "holm1979", "article", "Holm, 1979",
            "Sture Holm. A simple sequentially rejective multiple test procedure. "
            "Scandinavian Journal of Statistics, 6(2):65–70, 1979.",
            author="Holm, Sture", title="A Simple Sequentially Rejective Multiple Test Procedure",
            journal="Scandinavian Journal of Statistics", volume="6", number="2",
            pages="65--70", year="1979",
        ),
        _ref(
            "benjamini1995", "article", "Benjamini & Hochberg, 1995",
            "Yoav Benjamini and Yosef Hochberg. Controlling the false discovery rate: a "
            "practical and powerful approach to multiple testing. Journal of the Royal "
            "Statistical Society, Series B, 57(1):289–300, 1995.",
            author="Benjamini, Yoav and Hochberg, Yosef",
            title="Controlling the False Discovery Rate: A Practical and Powerful Approach to "
            "Multiple Testing",
            journal="Journal of the Royal Statistical Society, Series B", volume="57",
            number="1", pages="289--300", year="1995",
        ),
        _ref(
            "cohen1988", "book", "Cohen, 1988",
            "Jacob Cohen. Statistical Power Analysis for the Behavioral Sciences, 2nd "
            "edition. Lawrence Erlbaum, 1988.",
            author="Cohen, Jacob", title="Statistical Power Analysis for the Behavioral Sciences",
            edition="2nd", publisher="Lawrence Erlbaum", address="Hillsdale, NJ", year="1988",
        ),
        _ref(
            "tukey1949", "article", "Tukey, 1949",
            "John W. Tukey. Comparing individual means in the analysis of variance. "
            "Biometrics, 5(2):99–114, 1949.",
            author="Tukey, John W.",
            title="Comparing Individual Means in the Analysis of Variance",
            journal="Biometrics", volume="5", number="2", pages="99--114", year="1949",
            doi="10.2307/3001913",
        ),
        _ref(
            "dunnett1955", "article", "Dunnett, 1955",
            "Charles W. Dunnett. A multiple comparison procedure for comparing several "
            "treatments with a control. Journal of the American Statistical Association, "
            "50(272):1096–1121, 1955.",
            author="Dunnett, Charles W.",
            title="A Multiple Comparison Procedure for Comparing Several Treatments with a "
            "Control",
            journal="Journal of the American Statistical Association", volume="50",
            number="272", pages="1096--1121", year="1955", doi="10.1080/01621459.1955.10501294",
        ),
        _ref(
            "carterette2012", "article", "Carterette, 2012",
            "Benjamin A. Carterette. Multiple testing in statistical analysis of "
            "systems-based information retrieval experiments. ACM Transactions on "
            "Information Systems, 30(1):4, 2012.",
            author="Carterette, Benjamin A.",
            title="Multiple Testing in Statistical Analysis of Systems-Based Information "
            "Retrieval Experiments",
            journal="ACM Transactions on Information Systems", volume="30", number="1",
            pages="4:1--4:34", year="2012", doi="10.1145/2094072.2094076",
        ),
        _ref(
            "sakai2018", "book", "Sakai, 2018",
            "Tetsuya Sakai. Laboratory Experiments in Information Retrieval: Sample Sizes, "
            "Effect Sizes, and Statistical Power. Springer, 2018.",
            author="Sakai, Tetsuya",
            title="Laboratory Experiments in Information Retrieval: Sample Sizes, Effect "
            "Sizes, and Statistical Power",
            series="The Information Retrieval Series", volume="40", publisher="Springer",
            address="Singapore", year="2018", doi="10.1007/978-981-13-1199-4",
        ),
        _ref(
            "sakai2016", "article", "Sakai, 2016",
            "Tetsuya Sakai. Topic set size design. Information Retrieval Journal, "
            "19(3):256–283, 2016.",
            author="Sakai, Tetsuya", title="Topic Set Size Design",
            journal="Information Retrieval Journal", volume="19", number="3",
            pages="256--283", year="2016", doi="10.1007/s10791-015-9273-z",
        ),
        _ref(
            "soboroff2018", "inproceedings", "Soboroff, 2018",
            "Ian Soboroff. Meta-analysis for retrieval experiments involving multiple test "
            "collections. In Proceedings of CIKM 2018, pages 713–722, 2018.",
            author="Soboroff, Ian",
            title="Meta-Analysis for Retrieval Experiments Involving Multiple Test Collections",
            booktitle="Proceedings of the 27th ACM International Conference on Information "
            "and Knowledge Management", pages="713--722", year="2018",
            doi="10.1145/3269206.3271719",
        ),
        _ref(
            "dersimonian1986", "article", "DerSimonian & Laird, 1986",
            "Rebecca DerSimonian and Nan Laird. Meta-analysis in clinical trials. Controlled "
            "Clinical Trials, 7(3):177–188, 1986.",
            author="DerSimonian, Rebecca and Laird, Nan",
            title="Meta-Analysis in Clinical Trials", journal="Controlled Clinical Trials",
            volume="7", number="3", pages="177--188", year="1986",
            doi="10.1016/0197-2456(86)90046-2",
        ),
        _ref(
            "higgins2002", "article", "Higgins & Thompson, 2002",
            "Julian P. T. Higgins and Simon G. Thompson. Quantifying heterogeneity in a "
            "meta-analysis. Statistics in Medicine, 21(11):1539–1558, 2002.",
            author="Higgins, Julian P. T. and Thompson, Simon G.",
            title="Quantifying Heterogeneity in a Meta-Analysis",
            journal="Statistics in Medicine", volume="21", number="11",
            pages="1539--1558", year="2002", doi="10.1002/sim.1186",
        ),
        _ref(
            "hedges1981", "article", "Hedges, 1981",
            "Larry V. Hedges. Distribution theory for Glass's estimator of effect size and "
            "related estimators. Journal of Educational Statistics, 6(2):107–128, 1981.",
            author="Hedges, Larry V.",
            title="Distribution Theory for {Glass}'s Estimator of Effect Size and Related "
            "Estimators",
            journal="Journal of Educational Statistics", volume="6", number="2",
            pages="107--128", year="1981", doi="10.3102/10769986006002107",
        ),
        _ref(
            "breuer2020", "inproceedings", "Breuer et al., 2020",
            "Timo Breuer, Nicola Ferro, Norbert Fuhr, Maria Maistro, Tetsuya Sakai, Philipp "
            "Schaer and Ian Soboroff. How to measure the reproducibility of system-oriented "
            "IR experiments. In Proceedings of the 43rd International ACM SIGIR Conference "
            "(SIGIR '20), pages 349–358, 2020.",
            author="Breuer, Timo and Ferro, Nicola and Fuhr, Norbert and Maistro, Maria and "
            "Sakai, Tetsuya and Schaer, Philipp and Soboroff, Ian",
            title="How to Measure the Reproducibility of System-oriented {IR} Experiments",
            booktitle="Proceedings of the 43rd International {ACM} {SIGIR} Conference on "
            "Research and Development in Information Retrieval",
            pages="349--358", year="2020", doi="10.1145/3397271.3401036",
        ),
    )
}  # fmt: skip

AVERAGING_CITES = ("keen1968",)
META_CITES = ("soboroff2018", "dersimonian1986", "higgins2002", "hedges1981")
POWER_CITES = ("sakai2016",)
EFFECT_SIZE_CITES = ("cohen1988",)
REPRO_CITES = ("breuer2020",)


def cited(keys: Iterable[str]) -> tuple[Reference, ...]:
    """The references of ``keys``, once each, sorted by key (an unknown key is skipped).

    Examples
    --------
    >>> [r.key for r in cited(["holm1979", "jarvelin2002", "holm1979"])]
    ['holm1979', 'jarvelin2002']
    """
    return tuple(REFERENCES[k] for k in sorted(set(keys)) if k in REFERENCES)


def bibtex(references: Iterable[Reference]) -> str:
    """A ``references.bib`` holding ``references``, separated by blank lines."""
    return "\n".join(r.bibtex() for r in references)
