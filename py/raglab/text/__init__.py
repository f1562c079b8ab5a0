"""Reading text: the bilingual analyzer, question answer types, numbers, input bounds."""
