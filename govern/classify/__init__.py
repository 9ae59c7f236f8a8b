"""Classification: structural changes between old and new graphs, and the rule table that decides them."""
