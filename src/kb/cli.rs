//! `cudoctor kb`: asks the knowledge base. (Filled below.)
