"""The Lark grammars of the record notation, shipped inside the package as ``analyzer.grammar``."""
