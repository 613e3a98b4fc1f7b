package server

// MarkdownRenders is how many Markdown texts the server has rendered: for tests of what a
// page costs.
func (s *Server) MarkdownRenders() int64 { return s.markdown.Renders() }
