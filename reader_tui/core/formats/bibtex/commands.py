"""Which LaTeX commands work in the document a bibliography is compiled in: no packages.

Measured with pdflatex (TeX Live 2022): each command `escape_latex` keeps, typeset with
two arguments in text and in math in `\\documentclass{article}` with no package.
"""

from __future__ import annotations

# Fail in text and in math: a package defines them (amsmath, amssymb, natbib, T1...).
NEEDS_PACKAGE = frozenset(
    """
    Alpha Angle Beta Bumpeq Cap Chi Citealp Citealt Citeauthor Citep Citet Colon Cref
    Cup DH DJ Digamma DownArrowBar DownArrowUpArrow DownLeftRightVector
    DownLeftTeeVector DownLeftVectorBar DownRightTeeVector DownRightVectorBar Epsilon
    Equal Eta Ident Iota Kappa Koppa LeftDownTeeVector LeftDownVectorBar LeftRightVector
    LeftTeeVector LeftTriangleBar LeftUpDownVector LeftUpTeeVector LeftUpVectorBar
    LeftVectorBar Lleftarrow Lsh Mu NG NestedGreaterGreater NestedLessLess Nu Omicron
    ReverseUpEquilibrium Rho RightDownTeeVector RightDownVectorBar RightTeeVector
    RightTriangleBar RightUpDownVector RightUpTeeVector RightUpVectorBar RightVectorBar
    RoundImplies Rrightarrow Rsh RuleDelayed Sampi Stigma Subset Supset TH Tau
    UpArrowBar UpEquilibrium VDash Vdash Vvdash Zeta allequal approxeq approxnotequal
    aquarius arccosh arcsinh arctanh aries arrowwaveleft arrowwaveright autoref
    backepsilon backprime backsim backsimeq barwedge because beth between binom
    blacklozenge blacksquare blacktriangle blacktriangledown blacktriangleleft
    blacktriangleright bm boldsymbol boxdot boxframe boxminus boxplus boxtimes bra
    braket bumpeq cancer capricornus circeq circlearrowleft circlearrowright circledS
    circledast circledcirc circleddash citealp citealt citeauthor citefullauthor citenum
    citep citepalias citet citetalias citetext citeyear citeyearpar clockoint
    clwintegral coloneqq color colorbox complement cref curlyeqprec curlyeqsucc curlyvee
    curlywedge curvearrowleft curvearrowright daleth dblarrowupdown ddddot dddot
    defcitealias dfrac dh diagup digamma divideontimes dj doteqdot dotplus dotsb dotsc
    dotsi dotsm dotso downdownarrows downharpoonleft downharpoonright downslopeellipsis
    eighthnote eqcirc eqref eqslantgtr eqslantless estimates eth exenumfulllabel
    fallingdotseq fcolorbox forcesextra gemini geqq geqslant gimel gnapprox gneq gneqq
    gnsim greaterequivlnt gtrapprox gtrdot gtreqless gtreqqless gtrless gtrsim
    guillemotleft guillemotright guilsinglleft guilsinglright hermitconjmatrix
    homothetic href hslash id iddots iiint iint image intercal jupiter k ket ketbra
    lVert lazysinv leftarrowtail leftleftarrows leftrightarrows leftrightharpoons
    leftrightsquigarrow leftthreetimes leo leqq leqslant lessapprox lessdot lesseqgtr
    lesseqqgtr lessequivlnt lessgtr lesssim libra llcorner lnapprox lneq lneqq lnsim
    looparrowleft looparrowright lozenge lrcorner ltimes lvert male mathbb mathfrak
    mathscr measuredangle mercury mho multimap nLeftarrow nLeftrightarrow nRightarrow
    nVDash nVdash neptune nexists ng ngeq ngtr nicefrac nleftarrow nleftrightarrow nleq
    nless nmid notgreaterless notlessgreater nparallel nprec nrightarrow nsubseteq nsucc
    nsupseteq ntriangleleft ntrianglelefteq ntriangleright ntrianglerighteq nvDash
    nvdash omicron openbracketleft openbracketright operatorname original overbracket
    overgroup overleftharpoon overleftrightarrow overlinesegment overrightharpoon
    perspcorrespond pisces pitchfork pluto pmb precapprox preccurlyeq precedesnotsimilar
    precnapprox precneqq precsim quarternote quotedblbase quotesinglbase rVert recorder
    rightangle rightanglearc rightarrowtail rightleftarrows rightmoon rightrightarrows
    rightsquigarrow rightthreetimes risingdotseq rtimes rvert sagittarius saturn scorpio
    smallsetminus sphericalangle sqrint sqsubset sqsupset square starequal subseteqq
    subsetneq subsetneqq succapprox succcurlyeq succnapprox succneqq succnsim succsim
    supseteqq supsetneq supsetneqq surfintegral taurus texorpdfstring text textTheta
    textcolor textdoublepipe textfrac textglotstop texthvlig textmp textnrleg textphi
    textschwa texttheta textturnk textvartheta tfrac th therefore thicksim tildetrpl
    triangledown trianglelefteq triangleq trianglerighteq truestate twoheadleftarrow
    twoheadrightarrow udots ulcorner underbracket undergroup underleftarrow
    underleftrightarrow underlinesegment underrightarrow upharpoonleft upharpoonright
    upslopeellipsis upuparrows uranus urcorner url varkappa varnothing
    varperspcorrespond vartriangle vartriangleleft vartriangleright veebar venus
    verymuchgreater verymuchless virgo volintegral wideparen xleftarrow xrightarrow
    """.split()
)

# Work in math only: in text they become `\\ensuremath{...}`.
MATH_ONLY = frozenset(
    """
    Delta Downarrow Gamma Im Lambda Leftarrow Leftrightarrow Longleftarrow
    Longleftrightarrow Longrightarrow Omega Phi Pi Pr Psi Re Rightarrow Sigma Theta
    Uparrow Updownarrow Upsilon Vert Xi acute aleph alpha amalg approx arccos arcsin
    arctan arg ast asymp backslash bar beta bigcap bigcirc bigcup bigoplus bigotimes
    bigtriangledown bigtriangleup bigvee bigwedge bowtie breve bullet cap cdot cdots
    check chi circ colon cong coprod cos cosh cup dagger dashv ddot ddots deg delta det
    diamond dim div dot doteq downarrow ell emptyset epsilon equiv eta exists exp flat
    forall frac frown gamma gcd ge geq gg grave hat hbar hom hookleftarrow
    hookrightarrow in inf infty int iota kappa ker lambda land langle lbrace lceil le
    leftarrow leftharpoondown leftharpoonup leftrightarrow leq lfloor lim liminf limsup
    ll lmoustache ln lnot log longleftarrow longleftrightarrow longmapsto longrightarrow
    lor mapsto mathbf mathcal mathit mathord mathrm mathsf mathtt max mid min mp mu
    nabla natural ne nearrow neq ni not notin nu nwarrow odot oint omega ominus oplus
    oslash otimes overbrace overline parallel partial perp phi pi pm prec preceq prime
    prod propto psi rangle rbrace rceil rfloor rho rightarrow rightharpoondown
    rightharpoonup rightleftharpoons rmoustache searrow setminus sharp sigma sim simeq
    sin sinh smile sqcap sqcup sqrt sqsubseteq sqsupseteq star subset subseteq succ
    succeq sum sup supset supseteq surd swarrow tan tanh tau theta tilde times to top
    triangleleft triangleright underbrace uparrow updownarrow uplus upsilon varepsilon
    varphi varpi varrho varsigma vartheta vdash vec vee vert wedge widehat widetilde wp
    wr xi zeta
    """.split()
)

# Math-only commands that take an argument: alone in `\\ensuremath{}` they fail.
TAKES_ARGUMENT = frozenset(
    """
    acute bar breve check ddot dot frac grave hat mathbf mathcal mathit mathord mathrm
    mathsf mathtt overbrace overline sqrt tilde underbrace vec widehat widetilde
    """.split()
)

# Package-free stand-ins in math for the common package commands of abstracts and titles.
MATH_SUBSTITUTES = {
    "text": r"\mbox", "textnormal": r"\mbox", "boldsymbol": r"\mathbf", "bm": r"\mathbf",
    "pmb": r"\mathbf", "mathbb": r"\mathbf", "mathds": r"\mathbf", "mathscr": r"\mathcal",
    "mathfrak": r"\mathrm", "operatorname": r"\mathrm", "tfrac": r"\frac", "dfrac": r"\frac",
    "coloneqq": r"\mathrel{:=}", "leqslant": r"\leq", "geqslant": r"\geq", "varnothing": r"\emptyset",
    "lesssim": r"\stackrel{<}{\sim}", "gtrsim": r"\stackrel{>}{\sim}",
    "iint": r"\int\!\!\int", "iiint": r"\int\!\!\int\!\!\int", "lvert": r"\vert", "rvert": r"\vert",
    "lVert": r"\Vert", "rVert": r"\Vert", "therefore": r"\Rightarrow",
    "hslash": r"\hbar", "smallsetminus": r"\setminus", "dotsc": r"\ldots", "dotsb": r"\cdots",
    "dotsm": r"\cdots", "dotsi": r"\cdots", "dotso": r"\ldots", "triangleq": r"\stackrel{\triangle}{=}",
    "geqq": r"\geq", "leqq": r"\leq", "eqref": r"\mbox",
}
# In text: `\text{x}` is just x in a box.
TEXT_SUBSTITUTES = {"text": r"\mbox", "textnormal": r"\textrm"}
